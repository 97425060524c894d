import * as z from 'zod/mini';
import { toIssues } from '../../core/zod-issues.js';
import {
  BatchRequestSchema,
  ScheduleRequestSchema,
  type ValidationRequest,
  ValidationRequestSchema,
} from '../../tax/request-schemas.js';
import { BODY_LIMITS, readJson, sendEmpty, sendJson } from '../http-io.js';
import { HttpProblem, type ProblemIssue, paymentRequired } from '../problem.js';
import type { Route } from '../router.js';
import type { Completer } from './completion.js';
import { acceptRequest, findReplay } from './idempotency.js';
import { checkIdentifierLimit } from './limits.js';
import { getResult, resultOf } from './results.js';
import { type AcceptedItem, routeItem } from './routing.js';
import { createSchedule, deleteSchedule, scheduleView } from './schedules.js';
import type { TaxStore } from './store.js';

const BASE = '/taxvalidation/v1';

async function parseBody<T>(
  req: Parameters<typeof readJson>[0],
  schema: z.core.$ZodType<T>,
  what: string,
): Promise<T> {
  const parsed = z.safeParse(schema, await readJson(req, BODY_LIMITS.taxItem));
  if (!parsed.success) throw new HttpProblem(422, `Invalid ${what}`, toIssues(parsed.error));
  return parsed.data;
}

/** The 202 body of a single validation that completes later. */
function pending(validationRequestId: string, body: ValidationRequest) {
  return {
    validationRequestId,
    status: 'PENDING',
    correlationId: body.correlationId ?? null,
    idempotencyKey: body.idempotencyKey,
  };
}

/** The five tax-validation endpoints. */
export function taxRoutes(store: TaxStore, completer: Completer): Route[] {
  const auth = { api: 'tax' as const };
  return [
    {
      method: 'POST',
      pattern: `${BASE}/validations`,
      auth,
      handle: async ({ req, res, principal }) => {
        const body = await parseBody(req, ValidationRequestSchema(), 'validation request');
        const { item, issue } = routeItem(body, '');
        if (issue) throw new HttpProblem(422, 'Invalid validation request', [issue]);
        if (body.attachSchedule && !principal.plan.scheduledValidation) {
          throw paymentRequired('feature-not-in-plan', 'The plan does not include scheduled validation');
        }
        const replayed = findReplay(store, principal, body);
        if (replayed) {
          const result = resultOf(store, replayed);
          if (result) return sendJson(res, 200, result);
          return sendJson(res, 202, pending(store.requestId(replayed), body));
        }
        checkIdentifierLimit(store, principal, [body]);
        const stored = acceptRequest(store, principal, item);
        if (completer.isAsync(item)) {
          completer.later(principal, stored);
          return sendJson(res, 202, pending(store.requestId(stored), body));
        }
        sendJson(res, 201, completer.now(principal, stored));
      },
    },
    {
      method: 'POST',
      pattern: `${BASE}/validations/batch`,
      auth,
      handle: async ({ req, res, principal }) => {
        const raw = await readJson(req, BODY_LIMITS.taxBatch);
        const parsed = BatchRequestSchema().safeParse(raw);
        if (!parsed.success) {
          const issues = toIssues(parsed.error);
          const indexes = [...new Set(issues.map((i) => /^items\.(\d+)/.exec(i.path)?.[1]).filter(Boolean))];
          const detail = indexes.length
            ? `Invalid batch: items ${indexes.join(', ')} are invalid; nothing was processed`
            : 'Invalid batch; nothing was processed';
          throw new HttpProblem(422, detail, issues);
        }
        const items: AcceptedItem[] = [];
        const issues: ProblemIssue[] = [];
        parsed.data.items.forEach((body, index) => {
          const routed = routeItem(body, `items.${index}.`);
          if (routed.issue) issues.push(routed.issue);
          if (body.attachSchedule && !principal.plan.scheduledValidation) {
            issues.push({
              path: `items.${index}.attachSchedule`,
              message: 'the plan does not include scheduled validation',
            });
          }
          items.push(routed.item);
        });
        if (issues.length) throw new HttpProblem(422, 'Invalid batch; nothing was processed', issues);
        // Every replay is checked (409 on a reused key) before anything is stored.
        const replays = items.map((item) => findReplay(store, principal, item.body));
        checkIdentifierLimit(
          store,
          principal,
          items.filter((_, i) => !replays[i]).map((i) => i.body),
        );
        const entries = items.map((item, index) => {
          const replayed = replays[index];
          // A replayed item is listed like any other (PENDING, as the reference shows every entry);
          // `replay: true` and, once it completed, its `validationResultId` say it was not run again.
          if (replayed) {
            const validationResultId = store.resultId(replayed);
            return {
              index,
              validationRequestId: store.requestId(replayed),
              status: 'PENDING',
              idempotencyKey: item.body.idempotencyKey,
              ...(validationResultId && { validationResultId }),
              replay: true,
            };
          }
          const stored = acceptRequest(store, principal, item);
          completer.later(principal, stored);
          return {
            index,
            validationRequestId: store.requestId(stored),
            status: 'PENDING',
            idempotencyKey: item.body.idempotencyKey,
          };
        });
        sendJson(res, 202, { items: entries });
      },
    },
    {
      method: 'POST',
      pattern: `${BASE}/schedules`,
      auth: { api: 'tax', feature: 'scheduledValidation' },
      handle: async ({ req, res, principal }) => {
        const body = await parseBody(req, ScheduleRequestSchema(), 'schedule request');
        const { issue } = routeItem(
          {
            countryCode: body.countryCode,
            rawValue: body.rawValue,
            requesterVatId: body.requesterVatId,
            preferredProvider: body.preferredProvider,
          },
          '',
        );
        if (issue) throw new HttpProblem(422, 'Invalid schedule request', [issue]);
        checkIdentifierLimit(store, principal, [body]);
        const { scheduleId } = createSchedule(store, principal, body);
        sendJson(res, 201, scheduleView(store, scheduleId));
      },
    },
    {
      method: 'DELETE',
      pattern: `${BASE}/schedules/:scheduleId`,
      auth,
      handle: ({ res, principal, params }) => {
        deleteSchedule(store, principal, params.scheduleId as string);
        sendEmpty(res, 204);
      },
    },
    {
      method: 'GET',
      pattern: `${BASE}/validation-results/:validationResultId`,
      auth,
      handle: ({ res, principal, params }) =>
        sendJson(res, 200, getResult(store, principal, params.validationResultId as string)),
    },
  ];
}
