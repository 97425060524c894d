/** One word of a command line as a POSIX shell reads it back: bare when plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that continues a run: `svc`, the words given (undefined ones and flags whose
 * value is undefined or false dropped), each quoted for a shell. `words`: positional words, or
 * `[flag, value]` pairs (`true` for a flag without a value).
 */
export function continueCommand(
  words: ReadonlyArray<string | [string, string | boolean | undefined]>,
): string {
  const out = ['svc'];
  for (const word of words) {
    if (typeof word === 'string') out.push(shellWord(word));
    else if (word[1] === true) out.push(word[0]);
    else if (typeof word[1] === 'string') out.push(word[0], shellWord(word[1]));
  }
  return out.join(' ');
}
