/** A `toBody` that removes `prefix` once when present (a second copy stays and fails as FORMAT). */
export function stripPrefix(prefix: string): (value: string) => string {
  const n = prefix.length;
  if (n !== 2) return (value) => (value.startsWith(prefix) ? value.slice(n) : value);
  // Every country prefix is two letters: compare their codes rather than call startsWith.
  const first = prefix.charCodeAt(0);
  const second = prefix.charCodeAt(1);
  return (value) =>
    value.charCodeAt(0) === first && value.charCodeAt(1) === second ? value.slice(2) : value;
}
