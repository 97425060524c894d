import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = (key = 'ak_demo_project') => ({ SVC_BASE_URL: server().url, SVC_API_KEY: key });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-test-'));
});
const file = (name: string) => join(dir, name);
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n');
const processed = () => server().admin.stats().validationsProcessed;

describe('every row that passes the structural check is processed exactly once', () => {
  it('2,000 rows with 3 % structural failures and 5 % check-digit failures', async () => {
    const { text, kinds } = makeCsv(2000);
    writeFileSync(file('in.csv'), text);
    const run = await runSvc(
      ['batch', file('in.csv'), '--out', file('out.ndjson'), '--rejects', file('rejects.csv')],
      { env: env() },
    );
    expect(run.code).toBe(0);
    const structural = kinds.filter((k) => k === 'structural').length;
    expect(processed()).toBe(2000 - structural);
    const out = lines(file('out.ndjson')).map((l) => JSON.parse(l) as { row: number; status: string });
    expect(out.map((r) => r.row)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(out.filter((r) => r.status === 'rejected')).toHaveLength(structural);
    const rejects = lines(file('rejects.csv'));
    expect(rejects[0]).toBe('row,line,countryCode,vatId,metadata.customerId,companyName,code,message');
    expect(rejects).toHaveLength(structural + 1);
    expect(rejects[1]).toMatch(/^33,34,DE,9{25},cust-33,"Kunde 33, GmbH",SCHEMA,"vatId must be at most 20/);
  });

  it('the same command again processes nothing new and writes the same output', async () => {
    const { text } = makeCsv(300);
    writeFileSync(file('in.csv'), text);
    await runSvc(['batch', file('in.csv'), '--out', file('a.ndjson')], { env: env() });
    const first = processed();
    await runSvc(['batch', file('in.csv'), '--out', file('b.ndjson')], { env: env() });
    expect(processed()).toBe(first);
    expect(readFileSync(file('b.ndjson'), 'utf8')).toBe(readFileSync(file('a.ndjson'), 'utf8'));
    expect(server().admin.stats().idempotentReplays).toBeGreaterThan(0);
  });
});

describe('an interrupted run resumes from its state file without processing a row twice', () => {
  it('exit 75 on interruption, then --resume gives the output of an uninterrupted run', async () => {
    const { text, kinds } = makeCsv(1200);
    writeFileSync(file('in.csv'), text);
    const controller = new AbortController();
    const progress = setInterval(() => {
      if (processed() >= 300) controller.abort();
    }, 0);
    const first = await runSvc(
      ['batch', file('in.csv'), '--out', file('out.ndjson'), '--chunk-size', '50', '--concurrency', '2'],
      {
        env: env(),
        signal: controller.signal,
      },
    );
    clearInterval(progress);
    expect(first.code).toBe(75);
    expect(first.stderr).toMatch(/--resume/);
    const state = JSON.parse(readFileSync(file('out.ndjson.state.json'), 'utf8')) as { rowsDone: number };
    expect(state.rowsDone).toBeGreaterThan(0);
    expect(state.rowsDone).toBeLessThan(1200);
    const resumed = await runSvc(['batch', file('in.csv'), '--out', file('out.ndjson'), '--resume'], {
      env: env(),
    });
    expect(resumed.code).toBe(0);
    expect(processed()).toBe(kinds.filter((k) => k !== 'structural').length);
    server().admin.reset();
    await runSvc(['batch', file('in.csv'), '--out', file('clean.ndjson')], { env: env() });
    const strip = (path: string) => lines(path).map((l) => JSON.parse(l).row + JSON.parse(l).status);
    expect(strip(file('out.ndjson'))).toEqual(strip(file('clean.ndjson')));
  });

  it('--resume refuses a state file of another input', async () => {
    writeFileSync(file('in.csv'), makeCsv(10).text);
    await runSvc(['batch', file('in.csv'), '--out', file('out.ndjson')], { env: env() });
    writeFileSync(file('in.csv'), makeCsv(11).text);
    const run = await runSvc(['batch', file('in.csv'), '--out', file('out.ndjson'), '--resume'], {
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/another input/);
  });
});

describe('CSV input: header row, delimiter , ; or tab, BOM, quoted fields, metadata columns', () => {
  it('reads a ;-separated file with a BOM and quoted fields; metadata reaches the server', async () => {
    const { text } = makeCsv(5, { delimiter: ';', bom: true });
    writeFileSync(file('in.csv'), text.replace('"Kunde 1; GmbH"', '"Kunde 1;\nzweite Zeile"'));
    const run = await runSvc(['batch', file('in.csv'), '--strategy', 'single', '-o', 'ndjson'], {
      env: env(),
    });
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { validationResultId: string; status: string });
    expect(rows).toHaveLength(5);
    const { SvcClient } = await import('../../src/client.js');
    const client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    const result = await client.tax.getResult(rows[0]?.validationResultId as string);
    expect(result.customerMetadata).toEqual({ customer_id: 'cust-1' });
    expect(result.input?.companyName).toBe('Kunde 1;\nzweite Zeile');
    await client.close();
  });

  it('tab-separated with aliases in any case', async () => {
    writeFileSync(file('in.tsv'), 'Country\tVATID\n DE\t136695976\nAT\tATU13585627\n');
    const run = await runSvc(['batch', file('in.tsv'), '--strategy', 'single', '-o', 'ndjson'], {
      env: env(),
    });
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).outcome),
    ).toEqual(['VALID', 'VALID']);
  });

  it('a header without the required columns is one clear usage error', async () => {
    writeFileSync(file('in.csv'), 'name,city\nx,y\n');
    const run = await runSvc(['batch', file('in.csv')], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/countryCode/);
  });

  it('a row with the wrong number of columns is rejected, not fatal', async () => {
    writeFileSync(file('in.csv'), 'countryCode,rawValue\nDE,136695976\nDE,136695976,extra\n');
    const run = await runSvc(['batch', file('in.csv'), '--strategy', 'single', '-o', 'ndjson'], {
      env: env(),
    });
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; code?: string });
    expect(rows.map((r) => r.status)).toEqual(['completed', 'rejected']);
    expect(rows[1]?.code).toBe('CSV');
  });

  it('reads from stdin with -', async () => {
    const run = await runSvc(['batch', '-', '--strategy', 'single', '-o', 'ndjson'], {
      env: env(),
      stdin: 'countryCode,rawValue\nDE,136695976\n',
    });
    expect(JSON.parse(run.stdout.trim()).outcome).toBe('VALID');
  });
});

describe('a 422 for a chunk isolates the offending rows; the rest is sent', () => {
  it('rows the server refuses go to the rejects file with the server reason', async () => {
    writeFileSync(
      file('in.csv'),
      'countryCode,rawValue,preferredProvider\nDE,136695976,\nDE,136695976,HMRC\nAT,ATU13585627,\n',
    );
    const run = await runSvc(
      ['batch', file('in.csv'), '--out', file('out.ndjson'), '--rejects', file('rej.csv')],
      { env: env() },
    );
    expect(run.code).toBe(0);
    const rows = lines(file('out.ndjson')).map((l) => JSON.parse(l) as { status: string; code?: string });
    expect(rows.map((r) => r.status)).toEqual(['submitted', 'rejected', 'submitted']);
    expect(rows[1]?.code).toBe('SERVER_422');
    expect(lines(file('rej.csv'))[1]).toMatch(/^2,3,DE,136695976,HMRC,SERVER_422,.*HMRC/);
    expect(processed()).toBe(2);
  });
});

describe('402 (plan limit) stops the run cleanly with its state saved', () => {
  it('stops at the identifier limit of the basic plan', async () => {
    const { text } = makeCsv(60);
    writeFileSync(file('in.csv'), text);
    const run = await runSvc(
      ['batch', file('in.csv'), '--out', file('out.ndjson'), '--chunk-size', '10', '--concurrency', '1'],
      {
        env: env('ak_basic_project'),
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/402.*Plan limit/);
    expect(run.stderr).toMatch(/state saved/);
    const state = JSON.parse(readFileSync(file('out.ndjson.state.json'), 'utf8')) as {
      rowsDone: number;
      stoppedBy?: string;
    };
    expect(state.stoppedBy).toMatch(/402/);
    expect(lines(file('out.ndjson'))).toHaveLength(state.rowsDone);
  });
});

describe('--strategy single gives outcomes inline; --sandbox --wait gives an outcome for every row', () => {
  it('single', async () => {
    writeFileSync(file('in.csv'), makeCsv(40).text);
    const run = await runSvc(['batch', file('in.csv'), '--strategy', 'single', '--out', file('out.csv')], {
      env: env(),
    });
    expect(run.code).toBe(0);
    const out = lines(file('out.csv'));
    expect(out[0]).toBe(
      'countryCode,vatId,metadata.customerId,companyName,row,line,status,outcome,provider,registryCompanyName,companyNameMatch,addressMatch,validationResultId,checkedAt,validationRequestId,code,message',
    );
    expect(out.filter((l) => /,completed,VALID,VIES,/.test(l))).toHaveLength(37);
    expect(out.filter((l) => /,completed,INVALID,VIES,/.test(l))).toHaveLength(2);
  });

  it('sandbox --wait', async () => {
    writeFileSync(file('in.csv'), makeCsv(150).text);
    const run = await runSvc(['--sandbox', 'batch', file('in.csv'), '--wait', '--out', file('out.ndjson')], {
      env: {},
    });
    expect(run.code).toBe(0);
    const rows = lines(file('out.ndjson')).map((l) => JSON.parse(l) as { status: string; outcome?: string });
    expect(rows).toHaveLength(150);
    expect(rows.every((r) => r.status === 'completed' || r.status === 'rejected')).toBe(true);
    expect(rows.filter((r) => r.outcome === 'INVALID')).toHaveLength(7);
  });
});
