/** `epochMs` plus `months` calendar months in UTC, clamped to the last day of the target month. */
export function addMonthsUtc(epochMs: number, months: number): number {
  const d = new Date(epochMs);
  const targetMonth = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(targetMonth / 12);
  const month = ((targetMonth % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** Months between runs per frequency. */
export const FREQUENCY_MONTHS = { MONTHLY: 1, QUARTERLY: 3, YEARLY: 12 } as const;
