import type { AuditClient } from '../../audit/client.js';
import { AbortError } from '../../core/errors/error-classes.js';
import { syncAuditArchive } from './job.js';
import type { SyncOptions, SyncResult } from './options.js';

/** Default `parallel` of {@link syncAuditProjects}: projects synced at once. */
export const DEFAULT_PROJECT_PARALLEL = 4;

/** One project of a many-project sync. */
export interface AuditProject {
  /** A name for the summary line (not sent anywhere). */
  name: string;
  /** The project's archive directory (each project its own). */
  dir: string;
  /** The project's API key (audit log API). */
  apiKey: string;
}

/** What a project's sync needs of a client: an `SvcClient` made with the project's key has it. */
export interface ProjectSyncClient {
  /** The audit client the project's run syncs with ({@link syncAuditArchive}). */
  audit: AuditClient;
  /** Releases the client's connections; called once the project's sync has ended. */
  close(): Promise<void>;
}

/** How one project's sync ended: `ok`, `incomplete` (written, not whole: exit 5), `failed`, `interrupted`. */
export type ProjectOutcome = 'ok' | 'incomplete' | 'failed' | 'interrupted';

/** What became of one project. */
export interface ProjectSyncResult {
  name: string;
  dir: string;
  outcome: ProjectOutcome;
  /** The run, when the sync finished. */
  result: SyncResult | null;
  /** The error's one-line message, when it failed (never holds the key). */
  error: string | null;
}

/** Options of {@link syncAuditProjects}. */
export interface SyncProjectsOptions {
  /** Options every project's sync shares (`dir` is each project's own). */
  sync?: Omit<SyncOptions, 'dir' | 'signal'>;
  /**
   * Makes the client of one project, with that project's key; called when the project's turn
   * comes, and the client is closed when it ends. Required.
   *
   * @example (project) => new SvcClient({ baseUrl, apiKey: project.apiKey })
   */
  client: (project: AuditProject) => ProjectSyncClient;
  /** Projects synced at once, 1 to 64. Default 4. */
  parallel?: number;
  /** Stops every sync after its current page; those projects end `interrupted` (a rerun resumes them). */
  signal?: AbortSignal;
  /** Called as each project ends, in the order they end. */
  onProject?: (result: ProjectSyncResult) => void;
}

/** The total of a many-project sync. */
export interface SyncProjectsSummary {
  projects: number;
  ok: number;
  incomplete: number;
  failed: number;
  interrupted: number;
  /** The worst outcome: interrupted, then failed, then incomplete, then ok. */
  worst: ProjectOutcome;
}

const RANK: Record<ProjectOutcome, number> = { ok: 0, incomplete: 1, failed: 2, interrupted: 3 };

/** Whether a finished run leaves the archive not whole (gaps recorded or conflicts kept). */
export const runIncomplete = (result: SyncResult): boolean =>
  result.retentionGap !== null || result.lateEvents.length > 0 || result.conflicts > 0;

/**
 * Syncs many projects, each with its own key into its own directory, `parallel` at a time: one
 * client per project, made when its turn comes and closed when it ends, so memory stays bounded by
 * `parallel`, not by the number of projects (results go to `onProject`; only counts are kept). One
 * project's failure (a 402, a lock) does not stop the others.
 *
 * @example
 * const total = await syncAuditProjects(projects, {
 *   client: (project) => new SvcClient({ baseUrl, apiKey: project.apiKey }),
 *   parallel: 4,
 *   onProject: (p) => console.log(p.name, p.outcome),
 * });
 * process.exitCode = total.worst === 'ok' ? 0 : 1;
 */
export async function syncAuditProjects(
  projects: Iterable<AuditProject>,
  options: SyncProjectsOptions,
): Promise<SyncProjectsSummary> {
  const parallel = options.parallel ?? DEFAULT_PROJECT_PARALLEL;
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 64)
    throw new RangeError('parallel must be a whole number from 1 to 64');
  const summary: SyncProjectsSummary = {
    projects: 0,
    ok: 0,
    incomplete: 0,
    failed: 0,
    interrupted: 0,
    worst: 'ok',
  };
  const queue = projects[Symbol.iterator]();
  const one = async (project: AuditProject): Promise<ProjectSyncResult> => {
    const client = options.client(project);
    try {
      const result = await syncAuditArchive(client.audit, {
        ...options.sync,
        dir: project.dir,
        ...(options.signal && { signal: options.signal }),
      });
      const outcome = runIncomplete(result) ? 'incomplete' : result.countMatches ? 'ok' : 'failed';
      return { name: project.name, dir: project.dir, outcome, result, error: null };
    } catch (error) {
      const interrupted = error instanceof AbortError && options.signal?.aborted === true;
      const message = error instanceof Error ? error.message : String(error);
      return {
        name: project.name,
        dir: project.dir,
        outcome: interrupted ? 'interrupted' : 'failed',
        result: null,
        error: message.split('\n')[0] ?? message,
      };
    } finally {
      await client.close();
    }
  };
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      const ended = await one(next.value);
      summary.projects += 1;
      summary[ended.outcome] += 1;
      if (RANK[ended.outcome] > RANK[summary.worst]) summary.worst = ended.outcome;
      options.onProject?.(ended);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return summary;
}
