import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, TOOLS, useDocumentFile } from '../helpers/openapi-tools.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const { file } = useDocumentFile();
// Inside the checkout (so `openapi-fetch` and `@types/node` resolve), out of git and Biome's way.
const cache = resolve(import.meta.dirname, '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'svc-openapi-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['*.ts'],
};

/** Two operations of each API through openapi-fetch, typed from the generated document types only. */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Outcome = components['schemas']['ValidationResult']['outcome'];

/** Exhaustive: adding an outcome to the document breaks this switch at compile time. */
export function outcomeWord(outcome: Outcome): string {
  switch (outcome) {
    case 'VALID':
      return 'valid';
    case 'INVALID':
      return 'invalid';
    case 'UNKNOWN':
      return 'unknown';
    case 'SOURCE_UNAVAILABLE':
      return 'registry unavailable';
    case 'NOT_SUPPORTED':
      return 'no registry';
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

export async function callEveryApi(baseUrl: string, verificationIds: { current: string; legacy: string }) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer ak_demo_project' } });
  const created = await api.POST('/taxvalidation/v1/validations', {
    body: { countryCode: 'DE', rawValue: '136695976', customerMetadata: { order: 'o-1' } },
  });
  if (!created.data || created.data.status !== 'COMPLETED') throw new Error('createValidation failed');
  const fetched = await api.GET('/taxvalidation/v1/validation-results/{validationResultId}', {
    params: { path: { validationResultId: created.data.validationResultId } },
  });
  const schedule = await api.POST('/taxvalidation/v1/schedules', {
    body: { countryCode: 'DE', rawValue: '136695976', frequency: 'YEARLY' },
  });
  const page = await api.GET('/platform/v1/events', { params: { query: { pageSize: 2 } } });
  const next = page.data?.nextCursor
    ? await api.GET('/platform/v1/events', {
        params: { query: { cursor: page.data.nextCursor, from: page.data.from, to: page.data.to } },
      })
    : undefined;
  const current = await api.GET('/captcha/v2/verifications/{verificationId}/results', {
    params: { path: { verificationId: verificationIds.current } },
  });
  const missing = await api.GET('/captcha/v2/verifications/{verificationId}/results', {
    params: { path: { verificationId: '00000000-0000-0000-0000-000000000001' } },
  });
  const legacyApi = createClient<paths>({ baseUrl, headers: { 'svc-authorization': 'ak_demo_project' } });
  const legacyHeader = { 'Content-Type': 'application/json' } as const;
  const legacy = await legacyApi.GET('/verifications/{verificationId}/assessments', {
    params: { path: { verificationId: verificationIds.legacy }, header: legacyHeader },
  });
  const legacyAgain = await legacyApi.GET('/verifications/{verificationId}/assessments', {
    params: { path: { verificationId: verificationIds.legacy }, header: legacyHeader },
  });
  const decisionAction: components['schemas']['VerificationResult']['decisionAction'] = current.data?.decisionAction;
  return {
    outcome: outcomeWord(created.data.outcome),
    fetchedOutcome: fetched.data ? outcomeWord(fetched.data.outcome) : undefined,
    scheduleId: schedule.data?.scheduleId,
    events: (page.data?.content.length ?? 0) + (next?.data?.content.length ?? 0),
    score: current.data?.score,
    decisionAction,
    missingStatus: missing.response.status,
    legacyReason: legacy.data?.reason,
    legacyAgainStatus: legacyAgain.response.status,
  };
}
`;

let generated: { code: number; stderr: string };
beforeAll(async () => {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(dir, 'program.ts'), PROGRAM);
  // Request defaults (a schedule's isEnabled: true) are applied by the server: without this flag
  // openapi-typescript would make such fields required in request bodies declared as components.
  generated = await runTool(TOOLS.openapiTypescript, [
    file,
    '--default-non-nullable=false',
    '-o',
    join(dir, 'schema.d.ts'),
  ]);
}, 120_000);

describe('openapi-typescript types from the document compile under --strict and narrow every closed enum', () => {
  it('generates the types, and a typed openapi-fetch client of every API compiles without a cast', async () => {
    expect(generated.stderr).not.toMatch(/error/i);
    expect(generated.code).toBe(0);
    const tsc = await runTool(TOOLS.tsc, ['-p', dir], { timeoutMs: 170_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 180_000);

  it('a switch that forgets an outcome does not compile (the enum is closed)', async () => {
    writeFileSync(
      join(dir, 'program.ts'),
      PROGRAM.replace("case 'NOT_SUPPORTED':\n      return 'no registry';\n", ''),
    );
    try {
      const tsc = await runTool(TOOLS.tsc, ['-p', dir], { timeoutMs: 170_000 });
      expect(tsc.stdout).toMatch(/Type '"NOT_SUPPORTED"' is not assignable to type 'never'/);
    } finally {
      writeFileSync(join(dir, 'program.ts'), PROGRAM);
    }
  }, 180_000);

  it('the typed client calls two operations of each API against the reference server', async () => {
    const s = server();
    s.admin.addAuditEvents({ count: 5, scope: 'project' });
    const ids = {
      current: s.admin.createVerification({ score: 0.2 }).verificationId,
      legacy: s.admin.createVerification({ score: 0.2 }).verificationId,
    };
    const program = (await import(join(dir, 'program.ts'))) as {
      callEveryApi(url: string, ids: { current: string; legacy: string }): Promise<Record<string, unknown>>;
    };
    expect(await program.callEveryApi(s.url, ids)).toEqual({
      outcome: 'valid',
      fetchedOutcome: 'valid',
      scheduleId: expect.stringMatching(/^sched_/),
      // 2 on the first page, the other 3 on the next (default pageSize).
      events: 5,
      score: 0.2,
      decisionAction: 'NO_ACTION',
      missingStatus: 404,
      legacyReason: 'CALCULATED',
      legacyAgainStatus: 410,
    });
  });
});
