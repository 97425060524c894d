import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalValidationError } from '../../src/core/errors/index.js';
import { LIMITS } from '../../src/tax/enums.js';
import { runSvc } from '../helpers/cli.js';
import { useTestClients } from '../helpers/client.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);

/** A valid German VAT ID padded with spaces to `size` characters: 11 characters once normalised. */
const padded = (size: number) => `DE136695976${' '.repeat(size - 11)}`;
const TWO_MB = padded(2 * 1024 * 1024);
const RAW_CAP = /rawValue: must be at most 64 characters as sent/;

const post = (path: string, body: unknown) =>
  rawRequest(server().url, 'POST', `/taxvalidation/v1${path}`, { key: 'ak_demo_project', body });
const taxEvents = () =>
  server()
    .admin.consoleEvents()
    .filter((e) => e.type === 'tax');

describe('a rawValue is at most 64 characters as sent, before separators are stripped (422)', () => {
  it('the cap is 64 raw characters', () => {
    expect(LIMITS.rawValueRawLength).toBe(64);
  });

  it('the server answers 422 to a 2 MB rawValue that normalises to a valid ID; nothing is stored or shown', async () => {
    const answer = await post('/validations', { countryCode: 'DE', rawValue: TWO_MB });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ status: 422, errors: [{ path: 'rawValue' }] });
    expect((answer.body as { errors: Array<{ message: string }> }).errors).toHaveLength(1);
    expect(server().admin.stats().validationsProcessed).toBe(0);
    expect(taxEvents()).toHaveLength(0);
  });

  it('the same in a batch item, a schedule and requesterVatId: every failing field is named', async () => {
    const batch = await post('/validations/batch', {
      items: [
        { countryCode: 'DE', rawValue: 'DE136695976' },
        { countryCode: 'DE', rawValue: padded(65) },
      ],
    });
    expect(batch.status).toBe(422);
    expect(batch.body).toMatchObject({ errors: [{ path: 'items.1.rawValue' }] });
    const schedule = await post('/schedules', {
      countryCode: 'DE',
      rawValue: padded(100_000),
      frequency: 'MONTHLY',
      requesterVatId: padded(65),
    });
    expect(schedule.status).toBe(422);
    expect((schedule.body as { errors: Array<{ path: string }> }).errors.map((e) => e.path).sort()).toEqual([
      'rawValue',
      'requesterVatId',
    ]);
  });

  it('64 characters with separators are still a value: 201', async () => {
    const answer = await post('/validations', { countryCode: 'DE', rawValue: padded(64) });
    expect(answer.status).toBe(201);
  });

  it('the client refuses a 2 MB rawValue locally (LocalValidationError naming rawValue); nothing is sent', async () => {
    const before = server().admin.requests().length;
    const error = await client()
      .tax.validate({ countryCode: 'DE', rawValue: TWO_MB, companyName: 'x'.repeat(257) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalValidationError);
    expect((error as LocalValidationError).issues.map((i) => i.path).sort()).toEqual([
      'companyName',
      'rawValue',
    ]);
    expect(server().admin.requests().length).toBe(before);
  });

  it('svc --sandbox validate with a 2 MB value: exit 2, one line naming rawValue, nothing on stdout', async () => {
    const run = await runSvc(['--sandbox', 'validate', 'DE', TWO_MB]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(RAW_CAP);
    expect(run.stderr.length).toBeLessThan(1000);
  });

  it('svc batch reports an over-long raw cell as a rejected row with the reason, and goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-raw-cap-'));
    const long = `DE-${'-'.repeat(100_000)}136695976`;
    writeFileSync(join(dir, 'in.csv'), `countryCode,vatId\nDE,DE136695976\nDE,${long}\nDE,DE 136 695 976\n`);
    const run = await runSvc(
      ['batch', join(dir, 'in.csv'), '--out', join(dir, 'out.ndjson'), '--rejects', join(dir, 'rejects.csv')],
      { env: { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const out = readFileSync(join(dir, 'out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: number; status: string });
    expect(out.map((r) => r.status)).toEqual(['submitted', 'rejected', 'submitted']);
    const rejects = readFileSync(join(dir, 'rejects.csv'), 'utf8').trim().split('\n');
    expect(rejects).toHaveLength(2);
    expect(rejects[1]).toMatch(/,SCHEMA,vatId [^,]*64 characters$/);
  });
});
