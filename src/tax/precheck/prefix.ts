/** A `toBody` that removes `prefix` once when present (a second copy stays and fails as FORMAT). */
export function stripPrefix(prefix: string): (value: string) => string {
  const n = prefix.length;
  return (value) => (value.startsWith(prefix) ? value.slice(n) : value);
}
