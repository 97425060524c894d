import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import {
  AuditTimestamp,
  FROM_AFTER_TO,
  fromAfterTo,
  isOrderedRange,
  resolveRange,
} from '../../audit/query.js';
import { AuditEventSchema } from '../../audit/schemas.js';
import { toIssues } from '../../core/zod-issues.js';
import { BASIC_PLAN, DEMO, FULL_PLAN } from '../fixtures.js';
import { BODY_LIMITS, readJson, sendJson } from '../http-io.js';
import { HttpProblem } from '../problem.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import type { AuditStore } from './store.js';
import type { AuditOwner } from './templates.js';

const HOUR_MS = 60 * 60 * 1000;

/** Whose events an admin body names: `scope`, `ownerId`, `projectId` (see {@link ownerOf}). */
export const ScopeFields = {
  /** Whose events: the project (default `demo`) or the agency (default `demo-agency`). */
  scope: z._default(z.enum(['project', 'agency']), 'project'),
  ownerId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
  /** A project made with `POST /__admin/projects` (the same as `scope: project, ownerId`). */
  projectId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
};

/** Body of `POST /__admin/projects`. */
export const ProjectBody = z.strictObject({
  name: z.string().check(z.minLength(1)).check(z.maxLength(200)),
  /** `business` (default: audit log, 90 days' retention) or `basic` (no audit log: every audit call is 402). */
  plan: z._default(z.enum(['business', 'basic']), 'business'),
});

/** `POST /__admin/projects`: a new project with its own key and its own audit events. */
export type CreateProject = z.input<typeof ProjectBody>;

/** What `POST /__admin/projects` answers. */
export interface CreatedProject {
  projectId: string;
  /** The project's API key (tax validation and audit log). */
  apiKey: string;
  name: string;
  plan: 'business' | 'basic';
}

/** Body of `POST /__admin/audit-events` that generates events. */
export const GenerateBody = z
  .strictObject({
    count: z.number().check(z.int()).check(z.gte(1)).check(z.lte(5_000_000)),
    ...ScopeFields,
    from: z.optional(AuditTimestamp()),
    to: z.optional(AuditTimestamp()),
  })
  .check(z.refine(isOrderedRange, fromAfterTo()));

const StoredEvent = AuditEventSchema().check(
  z.refine((e) => AuditTimestamp().safeParse(e.occurredAt).success, {
    path: ['occurredAt'],
    message: 'must be an ISO 8601 timestamp',
  }),
);
/** Body of `POST /__admin/audit-events` that stores events as given. */
export const EventsBody = z.strictObject({
  events: z.array(StoredEvent).check(z.minLength(1)).check(z.maxLength(100_000)),
  ...ScopeFields,
});

/** `POST /__admin/audit-events`: generate `count` events deterministically over `from`..`to` (default the last 24 hours). */
export type GenerateAuditEvents = z.input<typeof GenerateBody>;
/** `POST /__admin/audit-events`: store these events as given. */
export type AddAuditEvents = z.input<typeof EventsBody>;

/** What an admin add reports. */
export interface AuditEventsAdded {
  added: number;
  scope: 'project' | 'agency';
  ownerId: string;
  /** Newest and oldest id of the added events. */
  newestId: string;
  oldestId: string;
  from: string;
  to: string;
}

/**
 * The owner that parsed {@link ScopeFields} name: `projectId`, else `ownerId`, else the demo
 * project or agency. 422 when `projectId` comes with `scope: agency` or `ownerId`.
 */
export function ownerOf(fields: {
  scope: 'project' | 'agency';
  ownerId?: string;
  projectId?: string;
}): AuditOwner {
  const { scope, ownerId, projectId } = fields;
  if (projectId !== undefined && (scope !== 'project' || ownerId !== undefined))
    throw new HttpProblem(422, 'Invalid admin request: projectId goes without scope agency and ownerId', [
      { path: 'projectId', message: 'projectId names the owner: leave out scope and ownerId' },
    ]);
  return { kind: scope, id: projectId ?? ownerId ?? (scope === 'agency' ? DEMO.agencyId : DEMO.projectId) };
}

/** Parses an admin body with `schema`; `HttpProblem` 422 naming the first failing field in its detail and every one in `errors`. */
export function parseAdminInput<T>(schema: z.core.$ZodType<T>, raw: unknown): T {
  const parsed = z.safeParse(schema, raw ?? {});
  if (parsed.success) return parsed.data;
  const issues = toIssues(parsed.error);
  const first = issues[0];
  throw new HttpProblem(
    422,
    `Invalid admin request${first ? `: ${first.path} ${first.message}` : ''}`,
    issues,
  );
}

/** Parses an admin body; the generate and explicit forms are told apart by `events`. */
function parseAdd(raw: unknown): {
  owner: AuditOwner;
  count?: number;
  from?: string;
  to?: string;
  events?: Array<Record<string, unknown>>;
} {
  const explicit = typeof raw === 'object' && raw !== null && 'events' in raw;
  const parsed = parseAdminInput<z.output<typeof EventsBody> | z.output<typeof GenerateBody>>(
    explicit ? EventsBody : GenerateBody,
    raw,
  );
  const owner = ownerOf(parsed);
  // Explicit events are stored as sent (the parsed copy would reorder keys).
  if (explicit) return { owner, events: (raw as { events: Array<Record<string, unknown>> }).events };
  const data = parsed as z.output<typeof GenerateBody>;
  return { owner, count: data.count, from: data.from, to: data.to };
}

/** Options of `admin.seedDemoData`. */
export interface DemoDataOptions {
  /** Audit events to generate for the demo project. Default 200. */
  auditEvents?: number;
}

/** In-process admin operations of the audit log API (same as `POST /__admin/audit-events`). */
export interface AuditAdmin {
  /** Loads the demo data used by `svc serve` and `--sandbox`. */
  seedDemoData(options?: DemoDataOptions): void;
  /** Adds audit events: `{count, scope, from?, to?}` generated deterministically, or `{events}` as given. */
  addAuditEvents(input: GenerateAuditEvents | AddAuditEvents): AuditEventsAdded;
  /** Makes a project with its own key (`{name, plan?}`); gone after a reset. */
  createProject(input: CreateProject): CreatedProject;
}

/** The admin operations over the store; an invalid request throws `HttpProblem` 422 (409 for a repeated id). */
export function auditAdmin(state: ServerState, store: AuditStore): AuditAdmin {
  /** Adds generated or explicit events; throws `HttpProblem` 422 for an invalid request. */
  const addAuditEvents = (input: unknown): AuditEventsAdded => {
    const req = parseAdd(input);
    const segment = (() => {
      if (req.events) {
        try {
          return store.addEvents(req.owner, req.events);
        } catch (error) {
          throw new HttpProblem(409, (error as Error).message);
        }
      }
      const range = resolveRange(req.from, req.to, state.clock.now());
      if (!isOrderedRange(range)) {
        throw new HttpProblem(422, 'from lies after to', [{ path: 'from', message: FROM_AFTER_TO }]);
      }
      return store.generate(req.owner, req.count as number, Date.parse(range.from), Date.parse(range.to));
    })();
    const last = segment.size - 1;
    const added: AuditEventsAdded = {
      added: segment.size,
      scope: req.owner.kind,
      ownerId: req.owner.id,
      newestId: segment.idAt(0),
      oldestId: segment.idAt(last),
      from: new Date(segment.occAt(last)).toISOString(),
      to: new Date(segment.occAt(0)).toISOString(),
    };
    const { newestId: _n, oldestId: _o, ...seen } = added;
    state.events.publish('audit', seen);
    return added;
  };

  /**
   * Demo data of `svc serve` and `--sandbox`: project events plus a few agency events over the last
   * 23 hours, so a default query (the last 24 hours) made within the next hour sees all of them.
   */
  const seedDemoData = (options: DemoDataOptions = {}): void => {
    const count = options.auditEvents ?? 200;
    const now = state.clock.now();
    const range = { from: new Date(now - 23 * HOUR_MS).toISOString(), to: new Date(now).toISOString() };
    if (count > 0) addAuditEvents({ count, scope: 'project', ...range });
    addAuditEvents({ count: 12, scope: 'agency', ...range });
  };

  let projects = 0;
  state.onReset(() => {
    projects = 0;
  });
  const createProject = (input: unknown): CreatedProject => {
    const parsed = ProjectBody.safeParse(input ?? {});
    if (!parsed.success) throw new HttpProblem(422, 'Invalid admin request', toIssues(parsed.error));
    projects += 1;
    const projectId = `proj_${String(projects).padStart(4, '0')}`;
    const apiKey = `ak_${randomBytes(24).toString('hex')}`;
    const plan = parsed.data.plan === 'basic' ? BASIC_PLAN : FULL_PLAN;
    state.principals.set(apiKey, {
      kind: 'project',
      ownerId: projectId,
      plan,
      locked: false,
      expired: false,
      captchaId: undefined,
      manualReviewOnFailure: true,
    });
    return { projectId, apiKey, name: parsed.data.name, plan: parsed.data.plan };
  };

  return { addAuditEvents, seedDemoData, createProject };
}

/** `POST /__admin/audit-events`, `POST /__admin/projects`. */
export function auditAdminRoutes(admin: AuditAdmin): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/__admin/projects',
      doc: {
        summary:
          'Makes a project with its own API key and its own audit events (seed them with POST /__admin/audit-events and projectId). plan basic has no audit log: every audit call is 402.',
        body: ProjectBody,
        example: { name: 'client-a', plan: 'business' },
        returns: '201 {projectId, apiKey, name, plan}',
      },
      handle: async ({ req, res }) =>
        sendJson(res, 201, admin.createProject((await readJson(req, BODY_LIMITS.admin)) as CreateProject)),
    },
    {
      method: 'POST',
      pattern: '/__admin/audit-events',
      doc: {
        summary:
          'Adds audit events: {count} generated deterministically over from..to (default the last 24 hours), or {events} stored as given; for the project (default demo) or the agency.',
        body: z.union([GenerateBody, EventsBody]),
        example: { count: 500, scope: 'project' },
        returns: '201 {added, scope, ownerId, newestId, oldestId, from, to}',
      },
      handle: async ({ req, res }) =>
        sendJson(
          res,
          201,
          admin.addAuditEvents((await readJson(req, BODY_LIMITS.auditEvents)) as AddAuditEvents),
        ),
    },
  ];
}
