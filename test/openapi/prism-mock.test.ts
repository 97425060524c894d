import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOMATION_KINDS } from '../../src/audit/schemas.js';
import { DECISION_ACTIONS, DECISION_TYPES, LEGACY_REASONS } from '../../src/botcheck/schemas.js';
import {
  MATCH_VALUES,
  OUTCOMES,
  PROVIDER_STATUSES,
  PROVIDERS,
  VERIFICATION_METHODS,
} from '../../src/tax/enums.js';
import { runSvc } from '../helpers/cli.js';
import { type RunningPrism, startPrism, useDocumentFile } from '../helpers/openapi-tools.js';

const { file } = useDocumentFile();
const mocks: Record<'static' | 'dynamic', RunningPrism | undefined> = {
  static: undefined,
  dynamic: undefined,
};
beforeAll(async () => {
  // Both at once: Prism is slow to start, and the two starts overlap.
  const [s, d] = await Promise.all([startPrism(['mock', file]), startPrism(['mock', '-d', file])]);
  mocks.static = s;
  mocks.dynamic = d;
}, 200_000);
afterAll(async () => {
  await Promise.all([mocks.static?.stop(), mocks.dynamic?.stop()]);
});

const ID = '0b8f3c52-7d1e-4f6a-9b2c-3d4e5f6a7b8c';
const COMMANDS: string[][] = [
  ['validate', 'DE', '136695976', '--no-precheck'],
  ['results', 'get', 'valres_1'],
  ['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'],
  ['schedules', 'delete', 'sched_1'],
  ['audit', 'list', '--page-size', '50'],
  ['captcha', 'result', ID],
  ['captcha', 'legacy', ID],
];

const oneOf =
  (values: readonly unknown[]) =>
  (v: unknown): boolean =>
    values.includes(v);
const isInt =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: unknown) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const isTime = (v: unknown) => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(`${v}`)));

/** What the reference and the document allow for a printed field, by its name. */
const RULES: Record<string, (v: unknown) => boolean> = {
  outcome: oneOf(OUTCOMES),
  provider: (v) => v === null || oneOf(PROVIDERS)(v),
  providerStatus: oneOf(PROVIDER_STATUSES),
  verificationMethod: oneOf(VERIFICATION_METHODS),
  decisionType: oneOf(DECISION_TYPES),
  decisionAction: oneOf(DECISION_ACTIONS),
  reason: oneOf(LEGACY_REASONS),
  score: (v) => typeof v === 'number' && v >= 0 && v <= 1,
  schemaVersion: oneOf([1, 2]),
  page: isInt(0),
  pageSize: isInt(1, 1000),
  totalElements: isInt(0),
  checkedAt: isTime,
  createdAt: isTime,
  completedAt: isTime,
  nextRunAt: isTime,
  occurredAt: isTime,
  verificationStartedAt: isTime,
  verificationFinishedAt: isTime,
  resultExpiresAt: isTime,
};

/** Every printed field a rule covers, with a value the rule refuses. */
function impossible(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) impossible(item, `${path}[${i}]`, out);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const rule = RULES[key];
      if (rule && !(v === undefined || rule(v))) out.push(`${path}.${key} = ${JSON.stringify(v)}`);
      if (key === 'automation' && v && typeof v === 'object') {
        const kind = (v as { kind?: unknown }).kind;
        if (!oneOf(AUTOMATION_KINDS)(kind)) out.push(`${path}.automation.kind = ${JSON.stringify(kind)}`);
      }
      if (key === 'match' && v && typeof v === 'object') {
        // Members added later are kept as received; the documented two must be documented values.
        for (const field of ['companyName', 'address']) {
          const m = (v as Record<string, unknown>)[field];
          if (m !== undefined && !oneOf(MATCH_VALUES)(m))
            out.push(`${path}.match.${field} = ${JSON.stringify(m)}`);
        }
      }
      impossible(v, `${path}.${key}`, out);
    }
  }
  return out;
}

const MALFORMED = /^Error: Unexpected .* from the server|not JSON/m;

describe('the check of printed values refuses impossible ones (so it can fail)', () => {
  it('flags a score outside 0..1, a negative page, an unknown outcome and a bad timestamp', () => {
    const printed = {
      page: -9007199254740991,
      content: [{ score: 72128663.58, outcome: 'magna', checkedAt: 'x' }],
    };
    expect(impossible(printed)).toEqual([
      '$.page = -9007199254740991',
      '$.content[0].score = 72128663.58',
      '$.content[0].outcome = "magna"',
      '$.content[0].checkedAt = "x"',
    ]);
  });
});

for (const mode of ['static', 'dynamic'] as const) {
  describe(`no CLI command prints an impossible value: Prism mock (${mode}) of the document`, () => {
    it.each(COMMANDS.map((args) => ({ name: args.join(' '), args })))('$name', async ({ args }) => {
      const env = {
        SVC_BASE_URL: mocks[mode]?.url,
        SVC_API_KEY: 'ak_demo_project',
        SVC_LEGACY_API_KEY: 'ak_x',
      };
      const run = await runSvc([...args, '-o', 'json', '--max-retries', '0'], { env });
      if (run.code === 1) {
        // Only a response the document calls impossible may fail, and it says so in one line.
        expect(run.stderr, run.stdout).toMatch(MALFORMED);
        return;
      }
      // A valid answer: 0, or the bot-check decision (3 reject, 4 needs an extra check).
      expect([0, 3, 4], run.stderr).toContain(run.code);
      const printed = run.stdout.trim() === '' ? undefined : JSON.parse(run.stdout);
      expect(impossible(printed)).toEqual([]);
    });
  });
}
