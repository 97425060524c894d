import type { ArchiveGap } from '../audit-archive/gaps.js';
import type { VerifyArchiveResult } from '../audit-archive/verify-result.js';

/**
 * What a search or report over an archive read, ending every answer: the head of the chain it
 * read, the range it covered, and whether that range is whole.
 */
export interface ArchiveReadFooter {
  /** The archive as given (`audit/`, `s3://bucket/prefix`). */
  archive: string;
  /** The newest manifest of the chain (its sha256 is what `audit verify --head` takes); null for an empty archive. */
  head: VerifyArchiveResult['head'];
  /**
   * The range the answer covers: the range asked (default the archive's), cut to what the archive
   * covers; null when the two do not meet.
   */
  range: { from: string; to: string } | null;
  /** True when nothing is missing from `range`: no open gap, no hole, every run's count matched. */
  whole: boolean;
  /** Why the range is not whole, one line each (empty when it is). */
  incomplete: string[];
  /** The open gaps that meet the range, as `svc audit gaps` lists them. */
  gaps: ArchiveGap[];
  /** False when the reader stopped before the end (a limit): the counts are of what was read. */
  complete: boolean;
  /** Data files read (each checked against its manifest: size, sha256, events). */
  files: number;
  /** Events read in the range. */
  events: number;
  /** Events that matched. */
  matched: number;
}

/** Whether `[from, to]` meets `[a, b]` (ISO timestamps, both ends included). */
export const meets = (from: number, to: number, a: string, b: string): boolean =>
  Date.parse(a) <= to && Date.parse(b) >= from;

/**
 * The range covered and why it is not whole: the asked range cut to the archive's (its first
 * regular run's start to its head), the holes and open gaps that meet it, runs whose count did
 * not match the API, and the part of the asked range the archive does not reach.
 */
export function coverage(
  walked: VerifyArchiveResult,
  asked: { from?: string | undefined; to?: string | undefined },
): Pick<ArchiveReadFooter, 'range' | 'incomplete' | 'gaps'> {
  const regular = walked.chain.filter((run) => run.kind === 'run');
  const start = regular[0]?.from;
  const end = walked.head?.to;
  if (start === undefined || end === undefined)
    return { range: null, incomplete: ['the archive holds no run'], gaps: [] };
  const from = asked.from !== undefined && Date.parse(asked.from) > Date.parse(start) ? asked.from : start;
  const to = asked.to !== undefined && Date.parse(asked.to) < Date.parse(end) ? asked.to : end;
  if (Date.parse(from) > Date.parse(to))
    return { range: null, incomplete: [`the archive covers ${start} to ${end} only`], gaps: [] };
  const [f, t] = [Date.parse(from), Date.parse(to)];
  const incomplete: string[] = [];
  if (asked.from !== undefined && Date.parse(asked.from) < Date.parse(start))
    incomplete.push(`the archive starts at ${start}, after --from ${asked.from}`);
  if (asked.to !== undefined && Date.parse(asked.to) > Date.parse(end))
    incomplete.push(`the archive's head ends at ${end}, before --to ${asked.to}`);
  for (const hole of walked.holes)
    if (meets(f, t, hole.from, hole.to)) incomplete.push(`hole: no run covers ${hole.from} to ${hole.to}`);
  const runs = new Map(walked.chain.map((run) => [run.manifest, run]));
  for (const problem of walked.problems) {
    const run = runs.get(problem.file);
    if (problem.kind === 'count-mismatch' && run && meets(f, t, run.from, run.to))
      incomplete.push(problem.message);
  }
  const gaps = walked.gaps.filter((gap) => gap.status === 'open' && meets(f, t, gap.from, gap.to));
  for (const gap of gaps)
    incomplete.push(
      `gap ${gap.id} open: ${gap.cause === 'retention' ? 'events may have expired' : `${gap.events ?? 'some'} ${gap.cause === 'late' ? 'late events missing' : 'events kept apart as conflicts'}`} between ${gap.from} and ${gap.to}`,
    );
  return { range: { from, to }, incomplete, gaps };
}
