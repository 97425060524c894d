/**
 * The outcome columns, after the input's own columns in CSV results, and the top-level fields of
 * an NDJSON results line (whose input cells are under `input`).
 */
export const OUTPUT_COLUMNS = [
  'row',
  'line',
  'status',
  'outcome',
  'provider',
  'registryCompanyName',
  'companyNameMatch',
  'addressMatch',
  'validationResultId',
  'checkedAt',
  'validationRequestId',
  'code',
  'message',
] as const;

/** Outcome columns that hold numbers. */
export const NUMBER_COLUMNS: ReadonlySet<string> = new Set(['row', 'line']);

/**
 * The names the input columns are written under in CSV results: the header's own names, except
 * that a name equal to an outcome column (or an earlier one) is prefixed with `input.`.
 */
export function inputColumnNames(inputHeader: readonly string[]): string[] {
  const taken = new Set<string>(OUTPUT_COLUMNS);
  return inputHeader.map((name) => {
    let out = name;
    while (taken.has(out)) out = `input.${out}`;
    taken.add(out);
    return out;
  });
}
