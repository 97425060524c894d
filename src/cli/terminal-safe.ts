import type { Writable } from 'node:stream';

/**
 * Characters a terminal would act on beyond C0: DEL, C1 (U+0080 to U+009F, e.g. the
 * one-character CSI U+009B), and the Unicode bidirectional marks, overrides and isolates that can
 * reorder what a line appears to say. JSON.stringify escapes C0 but sends these raw.
 */
const BEYOND_C0 = '\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069';

/** Every control character a terminal would act on: C0 (including ESC, BEL, CR, LF, TAB) and {@link BEYOND_C0}. */
const UNSAFE = new RegExp(`[\u0000-\u001f${BEYOND_C0}]`, 'g');

/** What JSON text may still carry raw after JSON.stringify (it only occurs inside strings). */
const UNSAFE_IN_JSON = new RegExp(`[${BEYOND_C0}]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');

/**
 * Text that is safe to print on a terminal: every control character is shown as an escape
 * (`\n`, `\r`, `\t`, `\x1b`, `\u009b`, `\u202e`) instead of being sent raw, so input from a file,
 * the network or an argument cannot move the cursor, change colours, set the window title or
 * hide part of a line. Printable text, including non-ASCII letters, is left as it is.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${hex4(c)}`;
  });
}

/**
 * Writes one line of terminal text (what a person reads, not data) to `stream`: `text` with every
 * control character escaped ({@link escapeForTerminal}), then a line feed. Every human line of the
 * CLI, on stdout and stderr, is written here, so no command can print a string from an archive,
 * a response or a file raw. `style` (the product's own colour) is applied to the escaped text:
 * the product's escape codes reach the terminal, the data's cannot. Default: no style.
 */
export function writeHumanLine(stream: Writable, text: string, style?: (escaped: string) => string): void {
  const shown = escapeForTerminal(text);
  stream.write(`${style ? style(shown) : shown}\n`);
}

/**
 * `JSON.stringify(value, null, indent)` with DEL, C1 controls and bidi marks written as `\uXXXX`
 * escapes (JSON.stringify already escapes C0): the same data for any JSON reader, and JSON
 * output that lands on a terminal cannot drive it. `indent` default: none (one line).
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(UNSAFE_IN_JSON, (c) => `\\u${hex4(c)}`);
}
