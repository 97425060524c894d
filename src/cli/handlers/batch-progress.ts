import type { BatchFileEvent } from '../../node/batch-file/options.js';
import type { CommandContext } from '../context.js';
import type { Progress } from '../progress.js';

/**
 * A whole number with its digits grouped as en-US writes them (`1,234,567`). Not
 * `Intl.NumberFormat`: creating the first one loads ICU data, 13 to 15 ms of every batch's start.
 */
function grouped(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `m:ss` (or `h:mm:ss`) for an ETA in seconds. */
function clock(seconds: number): string {
  const s = Math.max(Math.round(seconds), 0);
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * The spinner text for a row event: `1,234 / 10,000 rows (12 %), ETA 0:42` once the total is
 * counted (the ETA once a rate is known), `1,234 rows` before; then rejected, failed and the rate.
 */
export function progressText(event: Extract<BatchFileEvent, { type: 'row' }>): string {
  const { rowsDone, rowsTotal, rowsPerSecond, counts } = event;
  let head = `${grouped(rowsDone)} rows`;
  if (rowsTotal !== undefined && rowsTotal > 0) {
    const percent = Math.min(Math.floor((rowsDone * 100) / rowsTotal), 100);
    head = `${grouped(rowsDone)} / ${grouped(rowsTotal)} rows (${percent} %)`;
    if (rowsPerSecond > 0) head += `, ETA ${clock((rowsTotal - rowsDone) / rowsPerSecond)}`;
  }
  return `batch: ${head}, ${counts.rejected ?? 0} rejected, ${counts.failed ?? 0} failed, ${grouped(rowsPerSecond)} rows/s`;
}

/** The spinner text while waiting: `waiting: 4,000 / 10,000 outcomes (40 %), 1,234/s, ETA 0:05`. */
export function waitingText(event: Extract<BatchFileEvent, { type: 'outcomes' }>): string {
  const { done, awaited, perSecond } = event;
  const percent = awaited > 0 ? Math.min(Math.floor((done * 100) / awaited), 100) : 100;
  const eta = perSecond > 0 && done < awaited ? `, ETA ${clock((awaited - done) / perSecond)}` : '';
  return `waiting: ${grouped(done)} / ${grouped(awaited)} outcomes (${percent} %), ${grouped(perSecond)}/s${eta}`;
}

/**
 * What `svc batch` shows of a run's progress events on stderr: warnings and notes as they come,
 * the spinner (rows, then outcomes; one line per tenth of the outcomes without a terminal).
 */
export function batchProgress(
  ctx: CommandContext,
  progress: Progress,
  limits: { waitTimeoutMs: number; quietMs: number },
): (event: BatchFileEvent) => void {
  let shownTenth = 0;
  return (event) => {
    if (event.type === 'columns') {
      if (event.ignored.length)
        ctx.out.warn(`ignoring column(s) not part of a request: ${event.ignored.join(', ')}`);
      for (const [from, to] of event.renamed)
        ctx.out.info(`metadata column ${from} is sent as key ${to} (keys use a-z, 0-9, _ and -)`);
      if (event.countryFromPrefix)
        ctx.out.info('no country column: the country is taken from each VAT ID prefix');
    } else if (event.type === 'listening') {
      if (!event.registered)
        ctx.out.info(`waiting for webhooks on ${event.url} (register it as the project's webhook endpoint)`);
    } else if (event.type === 'encoding') {
      ctx.out.warn(
        `input is not valid UTF-8 (byte ${event.invalidAt}) and has no BOM: reading it as ${event.encoding}; use --encoding to choose`,
      );
    } else if (event.type === 'resending') {
      progress.print(() =>
        ctx.out.info(
          `sending ${event.rows} row(s) again that failed with 429, 5xx, a timeout or a broken connection (same idempotency keys)`,
        ),
      );
    } else if (event.type === 'row') {
      progress.update(() => progressText(event));
    } else if (event.type === 'waiting') {
      // Every row already answered (refused locally, or answered at once by the service): nothing to say.
      if (event.outstanding > 0)
        progress.print(() =>
          ctx.out.info(`waiting for ${event.outstanding} completion(s), at most ${event.timeoutMs / 1000} s`),
        );
    } else if (event.type === 'outcomes') {
      // On a terminal the display shows it; otherwise one line per tenth of the rows awaited.
      if (progress.live) progress.update(() => waitingText(event));
      else if (event.awaited > 0) {
        const tenth = Math.floor((event.done * 10) / event.awaited);
        if (tenth > shownTenth) {
          shownTenth = tenth;
          ctx.out.info(waitingText(event));
        }
      }
    } else if (event.type === 'reconciling') {
      const why = {
        quiet: `no completion for ${limits.quietMs / 1000} s`,
        resumed: 'their completions went to the interrupted run',
        timeout: `--wait-timeout of ${limits.waitTimeoutMs / 1000} s is up`,
      }[event.reason];
      progress.print(() =>
        ctx.out.info(
          `asking the service about ${event.rows} row(s) without an outcome (${why}); nothing is validated twice`,
        ),
      );
    }
  };
}
