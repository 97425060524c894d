import { z } from 'zod';
import { toIssues } from '../../core/zod-issues.js';
import { PROVIDERS } from '../../tax/enums.js';
import { BatchRequest, ScheduleRequest, ValidationRequest } from '../../tax/request-schemas.js';
import { adminBody } from '../admin-core.js';
import { readJson, sendEmpty, sendJson } from '../http-io.js';
import type { ServerModule } from '../module.js';
import { HttpProblem, type ProblemIssue } from '../problem.js';
import type { ServerState } from '../state.js';
import { type AcceptedItem, TaxEngine } from '../tax/engine.js';
import type { WebhookSender } from '../webhooks.js';

const BASE = '/taxvalidation/v1';

async function parseBody<T>(
  req: Parameters<typeof readJson>[0],
  schema: z.ZodType<T>,
  what: string,
): Promise<T> {
  const parsed = schema.safeParse(await readJson(req));
  if (!parsed.success) throw new HttpProblem(422, `Invalid ${what}`, toIssues(parsed.error));
  return parsed.data;
}

const ProviderModeBody = z.strictObject({ mode: z.enum(['sync', 'async', 'unavailable']) });
const WebhookEndpointBody = z.strictObject({ url: z.url({ protocol: /^https?$/ }) });

/** The five tax-validation endpoints and their admin controls. */
export function taxModule(state: ServerState, webhooks: WebhookSender): ServerModule & { engine: TaxEngine } {
  const engine = new TaxEngine(state, webhooks);
  const auth = { api: 'tax' as const };
  return {
    engine,
    close: () => {
      engine.close();
      webhooks.close();
    },
    routes: [
      {
        method: 'POST',
        pattern: `${BASE}/validations`,
        auth,
        handle: async ({ req, res, principal }) => {
          const body = await parseBody(req, ValidationRequest, 'validation request');
          const { item, issue } = engine.route(body, '');
          if (issue) throw new HttpProblem(422, 'Invalid validation request', [issue]);
          if (body.attachSchedule && !principal.plan.scheduledValidation) {
            throw new HttpProblem(402, 'The plan does not include scheduled validation');
          }
          const replayed = engine.lookupIdempotent(principal, body);
          if (replayed) {
            const result = engine.resultOf(replayed);
            if (result) return sendJson(res, 200, result);
            return sendJson(res, 202, {
              validationRequestId: replayed.validationRequestId,
              status: 'PENDING',
              correlationId: body.correlationId ?? null,
              idempotencyKey: body.idempotencyKey,
            });
          }
          engine.checkIdentifierLimit(principal, [body]);
          const stored = engine.accept(principal, item);
          if (engine.isAsync(item)) {
            engine.completeLater(principal, item, stored);
            return sendJson(res, 202, {
              validationRequestId: stored.validationRequestId,
              status: 'PENDING',
              correlationId: body.correlationId ?? null,
              idempotencyKey: body.idempotencyKey,
            });
          }
          sendJson(res, 201, engine.complete(principal, item, stored));
        },
      },
      {
        method: 'POST',
        pattern: `${BASE}/validations/batch`,
        auth,
        handle: async ({ req, res, principal }) => {
          const raw = await readJson(req);
          const parsed = BatchRequest.safeParse(raw);
          if (!parsed.success) {
            const issues = toIssues(parsed.error);
            const indexes = [
              ...new Set(issues.map((i) => /^items\.(\d+)/.exec(i.path)?.[1]).filter(Boolean)),
            ];
            const detail = indexes.length
              ? `Invalid batch: items ${indexes.join(', ')} are invalid; nothing was processed`
              : 'Invalid batch; nothing was processed';
            throw new HttpProblem(422, detail, issues);
          }
          const items: AcceptedItem[] = [];
          const issues: ProblemIssue[] = [];
          parsed.data.items.forEach((body, index) => {
            const routed = engine.route(body, `items.${index}.`);
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
          const replays = items.map((item) => engine.lookupIdempotent(principal, item.body));
          engine.checkIdentifierLimit(
            principal,
            items.filter((_, i) => !replays[i]).map((i) => i.body),
          );
          const entries = items.map((item, index) => {
            const replayed = replays[index];
            if (replayed) {
              return {
                index,
                validationRequestId: replayed.validationRequestId,
                status: replayed.status,
                idempotencyKey: item.body.idempotencyKey,
                ...(replayed.validationResultId && { validationResultId: replayed.validationResultId }),
                replay: true,
              };
            }
            const stored = engine.accept(principal, item);
            engine.completeLater(principal, item, stored);
            return {
              index,
              validationRequestId: stored.validationRequestId,
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
          const body = await parseBody(req, ScheduleRequest, 'schedule request');
          const { issue } = engine.route(
            {
              countryCode: body.countryCode,
              rawValue: body.rawValue,
              requesterVatId: body.requesterVatId,
              preferredProvider: body.preferredProvider,
            },
            '',
          );
          if (issue) throw new HttpProblem(422, 'Invalid schedule request', [issue]);
          engine.checkIdentifierLimit(principal, [body]);
          const { scheduleId } = engine.createSchedule(principal, body);
          sendJson(res, 201, engine.scheduleView(scheduleId));
        },
      },
      {
        method: 'DELETE',
        pattern: `${BASE}/schedules/:scheduleId`,
        auth,
        handle: ({ res, principal, params }) => {
          engine.deleteSchedule(principal, params.scheduleId as string);
          sendEmpty(res, 204);
        },
      },
      {
        method: 'GET',
        pattern: `${BASE}/validation-results/:validationResultId`,
        auth,
        handle: ({ res, principal, params }) =>
          sendJson(res, 200, engine.getResult(principal, params.validationResultId as string)),
      },
      {
        method: 'POST',
        pattern: '/__admin/providers/:provider',
        handle: async ({ req, res, params }) => {
          const provider = params.provider as string;
          if (!(PROVIDERS as readonly string[]).includes(provider)) {
            throw new HttpProblem(404, `Unknown provider ${provider}; known: ${PROVIDERS.join(', ')}`);
          }
          const { mode } = await adminBody(req, ProviderModeBody);
          engine.providerModes.set(provider, mode);
          sendJson(res, 200, { provider, mode });
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/webhook-endpoints',
        handle: async ({ req, res }) => {
          const { url } = await adminBody(req, WebhookEndpointBody);
          if (!webhooks.endpoints.includes(url)) webhooks.endpoints.push(url);
          sendJson(res, 201, { url, endpoints: webhooks.endpoints });
        },
      },
    ],
  };
}
