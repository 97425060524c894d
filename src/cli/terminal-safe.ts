/**
 * Control characters a terminal would act on: C0 (including ESC, BEL, CR, LF, TAB), DEL, C1
 * (U+0080 to U+009F, e.g. the one-character CSI U+009B), and the Unicode bidirectional overrides
 * and isolates that can reorder what a line appears to say.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

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
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
