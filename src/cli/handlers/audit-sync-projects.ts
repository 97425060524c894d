import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { toIssues } from '../../core/zod-issues.js';
import { isBucketLocation, localPath } from '../../node/audit-store/open-store.js';
import type { SyncOptions } from '../../node/audit-sync/options.js';
import {
  type AuditProject,
  DEFAULT_PROJECT_PARALLEL,
  syncAuditProjects,
} from '../../node/audit-sync/projects.js';
import { checkDistinctPaths } from '../../node/fs/distinct-paths.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { loadSvcClient } from '../load-client.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { announceHead, runCode, runLine } from './audit-sync-report.js';

/** Largest projects file read: a few hundred bytes per project. */
const MAX_PROJECTS_FILE_BYTES = 4 << 20;

/**
 * The variables a projects file may name: `SVC_` and upper-case letters, digits or `_`. An edited
 * projects file in a CI job must not be able to send another secret of the job (`PATH`,
 * `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`) to the service as a bearer token.
 */
/** A project's name: it names its lines and, in an error, its entry. */
const PROJECT_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const KEY_ENV = /^SVC_[A-Z0-9_]{1,124}$/;
/** What an audit-log API key looks like (the service's keys start with `ak_`). */
const API_KEY_SHAPE = /^ak_[A-Za-z0-9_-]{1,500}$/;

/** One project of `--projects FILE`: no key in the file, only the name of the variable holding it. */
const ProjectEntry = z.strictObject({
  name: z.string().regex(PROJECT_NAME, 'letters, digits, . _ - (1 to 100)'),
  dir: z.string().min(1).max(4096),
  keyEnv: z.string().regex(KEY_ENV, 'a variable named SVC_..., upper-case letters, digits and _'),
});
const ProjectsFile = z.union([
  z.array(ProjectEntry).min(1).max(10_000),
  z.strictObject({ projects: z.array(ProjectEntry).min(1).max(10_000) }),
]);

/**
 * An issue's path with the entry's index replaced by its name where the entry has one
 * (`billing: keyEnv` rather than `1.keyEnv`), so a long file's error names the project.
 */
function entryPath(raw: unknown, path: string): string {
  const match = /^(projects\.)?(\d+)(\.|$)(.*)$/.exec(path);
  if (!match) return path;
  const list = match[1] ? (raw as { projects?: unknown }).projects : raw;
  const name = Array.isArray(list)
    ? (list[Number(match[2])] as { name?: unknown } | undefined)?.name
    : undefined;
  if (typeof name !== 'string' || !PROJECT_NAME.test(name)) return path;
  return match[4] ? `${name}: ${match[4]}` : name;
}

/** Reads and checks the projects file: names and directories distinct, every key variable set. */
async function readProjects(ctx: CommandContext, path: string): Promise<AuditProject[]> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_PROJECTS_FILE_BYTES)
      throw new UsageError(`--projects: ${path} is larger than 4 MB`);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--projects: cannot read ${path}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`--projects: ${path} is not JSON`);
  }
  const parsed = ProjectsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = toIssues(parsed.error)[0];
    const where = issue?.path ? entryPath(raw, issue.path) : 'the file';
    throw new UsageError(
      `--projects: ${where}: ${issue?.message ?? 'invalid'} (each project is {name, dir, keyEnv}; keys never go in the file)`,
    );
  }
  const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.projects;
  const names = new Set<string>();
  const dirs = new Set<string>();
  return entries.map((entry) => {
    if (names.has(entry.name)) throw new UsageError(`--projects: the name ${entry.name} is used twice`);
    const dir = isBucketLocation(entry.dir) ? entry.dir : resolve(entry.dir);
    if (dirs.has(dir))
      throw new UsageError(`--projects: ${entry.name}: the directory ${entry.dir} is used twice`);
    names.add(entry.name);
    dirs.add(dir);
    const apiKey = ctx.settings.env(entry.keyEnv)?.trim();
    if (!apiKey) throw new UsageError(`--projects: ${entry.name}: the variable ${entry.keyEnv} holds no key`);
    ctx.settings.addSecret(apiKey);
    // The value is never shown: it may be a secret of another kind that a mistake put there.
    if (!API_KEY_SHAPE.test(apiKey))
      throw new UsageError(
        `--projects: ${entry.name}: the variable ${entry.keyEnv} does not hold an API key (ak_...)`,
      );
    return { name: entry.name, dir: entry.dir, apiKey };
  });
}

/**
 * `svc audit sync --projects FILE [--parallel N]`: every project of the file into its own
 * directory with its own key, N at a time; one summary line per project and a total. Exit status:
 * the worst of them (75 interrupted, 1 failed, 5 not whole, 0).
 */
export async function auditSyncProjects(
  ctx: CommandContext,
  file: string,
  parallelFlag: string | undefined,
  shared: Omit<SyncOptions, 'dir'>,
  signKeyPath?: string,
): Promise<number> {
  const parallel =
    parallelFlag === undefined ? DEFAULT_PROJECT_PARALLEL : parseIntOption(parallelFlag, '--parallel', 1, 64);
  const projects = await readProjects(ctx, file);
  // A private key inside an archive would be copied wherever the archive goes, or replaced by it.
  for (const project of projects) {
    await checkDistinctPaths([
      { name: `--projects ${project.name}`, path: localPath(project.dir), directory: true },
      { name: '--sign-key', path: signKeyPath },
    ]);
  }
  const { apiKey: _key, auditApiKey: _audit, ...clientOptions } = await ctx.client.options();
  const SvcClient = await loadSvcClient();
  const codes: number[] = [];
  const heads: Array<Promise<void>> = [];
  const total = await syncAuditProjects(projects, {
    sync: shared,
    client: (project) =>
      new SvcClient({ ...clientOptions, apiKey: project.apiKey, auditApiKey: project.apiKey }),
    parallel,
    ...ctx.signals.abortable,
    onProject: (ended) => {
      const prefix = `${ended.name}: `;
      if (ended.result) {
        ctx.out.info(`${prefix}${runLine(ended.result)}`);
        codes.push(ended.result.status === 'up-to-date' ? EXIT.OK : runCode(ctx, ended.result, prefix));
        heads.push(announceHead(ctx, ended.dir, ended.result, ended.name));
      } else if (ended.outcome === 'interrupted') {
        ctx.out.info(`${prefix}interrupted: rerun to resume it`);
      } else {
        ctx.out.warn(`${prefix}failed: ${ended.error}`);
      }
    },
  });
  await Promise.all(heads);
  ctx.out.info(
    `${total.projects} projects: ${total.ok} ok, ${total.incomplete} not whole, ${total.failed} failed${total.interrupted ? `, ${total.interrupted} interrupted` : ''}`,
  );
  if (total.interrupted > 0) return EXIT.INTERRUPTED;
  if (total.failed > 0 || codes.includes(EXIT.FAILURE)) return EXIT.FAILURE;
  if (total.incomplete > 0 || codes.includes(EXIT.INCOMPLETE)) return EXIT.INCOMPLETE;
  return EXIT.OK;
}
