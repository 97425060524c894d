// The ASCII bytes of JSON's structure, for the scanners that read a page as bytes (raw-page.ts,
// cursor-at-tail.ts).

export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;

/** JSON whitespace: space, line feed, carriage return, tab. */
export const isSpace = (c: number | undefined): boolean => c === 32 || c === 10 || c === 13 || c === 9;
