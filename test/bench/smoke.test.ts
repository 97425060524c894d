import { describe, expect, it } from 'vitest';
import { precheck } from '../../src/tax/precheck/index.js';

// The benchmark helpers are plain JavaScript run by node; a non-literal specifier keeps the
// type checker from asking for declarations. Nothing here is timed.
const load = (path: string) => import(new URL(`../../bench/${path}`, import.meta.url).href);

describe('bench statistics: median and nearest-rank percentile', () => {
  it('takes the middle value, or the mean of the two middle values', async () => {
    const { median, percentile } = await load('lib/stats.js');
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
    const sorted = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 99)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
  });

  it('interleaves contenders in a rotating order', async () => {
    const { interleave } = await load('lib/stats.js');
    const order: string[] = [];
    const make = (name: string) => async () => {
      order.push(name);
      return order.length;
    };
    const out = await interleave(3, { a: make('a'), b: make('b'), c: make('c') });
    expect(order).toEqual(['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
    expect(out.a).toHaveLength(3);
  });
});

describe('batch input: distinct valid German numbers and their chunk bodies', () => {
  it('generates numbers that pass the pre-check, without repeats', async () => {
    const { germanVatIds } = await load('lib/batch-input.js');
    const ids: string[] = [...germanVatIds(2_000, precheck)];
    expect(ids).toHaveLength(2_000);
    expect(new Set(ids).size).toBe(2_000);
    for (const id of ids) {
      expect(id).toMatch(/^[1-9]\d{8}$/);
      expect(precheck('DE', id).valid).toBe(true);
    }
  });

  it('builds one body per chunk with a distinct idempotency key per row', async () => {
    const { chunkBodies, germanVatIds } = await load('lib/batch-input.js');
    const ids: string[] = [...germanVatIds(250, precheck)];
    const bodies: string[] = chunkBodies(ids, 100, 'run-a');
    const parsed = bodies.map((b) => JSON.parse(b) as { items: Array<Record<string, string>> });
    expect(parsed.map((p) => p.items.length)).toEqual([100, 100, 50]);
    const items = parsed.flatMap((p) => p.items);
    expect(items.map((i) => i.rawValue)).toEqual(ids);
    expect(new Set(items.map((i) => i.idempotencyKey)).size).toBe(250);
    expect(items[0]).toEqual({
      countryCode: 'DE',
      rawValue: ids[0],
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const other = JSON.parse(chunkBodies(ids, 100, 'run-b')[0] as string).items[0].idempotencyKey;
    expect(other).not.toBe(items[0]?.idempotencyKey);
  });

  it('tallies the statuses of an NDJSON batch output', async () => {
    const { tallyStatuses } = await load('scenarios/batch.js');
    const text =
      '{"row":1,"status":"submitted"}\n{"row":2,"status":"rejected"}\n{"row":3,"status":"submitted"}\n';
    expect(tallyStatuses(text)).toEqual({ submitted: 2, rejected: 1 });
  });
});

describe('pre-check oracles: adapters pick the validator and add the prefix they need', () => {
  it('accepts known-valid numbers with and without prefix and rejects a mutated one', async () => {
    const { jsvatAdapter, stdnumAdapter } = await load('scenarios/precheck.js');
    for (const check of [jsvatAdapter(), stdnumAdapter()]) {
      expect(check('DE', 'DE136695976')).toBe(true);
      expect(check('DE', '136695976')).toBe(true);
      expect(check('GR', '094259216')).toBe(true);
      expect(check('DE', '136695975')).toBe(false);
    }
  });

  it('generates the same inputs for the same seed, about half of them valid', async () => {
    const { precheckInputs } = await load('precheck-inputs.js');
    const a = precheckInputs(2_000, 42);
    expect(precheckInputs(2_000, 42)).toEqual(a);
    const valid = a.filter(
      (i: { country: string; value: string }) => precheck(i.country, i.value).valid,
    ).length;
    expect(valid).toBeGreaterThan(800);
    expect(valid).toBeLessThan(1_200);
  });
});

describe('results table: one row per figure with ratio, goal and whether it is met', () => {
  it('marks rate goals (at least) and time goals (at most)', async () => {
    const { ratioRow, limitRow } = await load('lib/rows.js');
    const f = (value: number) => ({ name: 'x', value, unit: 'u' });
    expect(
      ratioRow({ scenario: 's', ours: f(80), baselines: [], against: f(100), min: 0.8, goal: 'g' }).met,
    ).toBe(true);
    expect(
      ratioRow({ scenario: 's', ours: f(79), baselines: [], against: f(100), min: 0.8, goal: 'g' }).met,
    ).toBe(false);
    expect(
      ratioRow({ scenario: 's', ours: f(12), baselines: [], against: f(10), max: 1.1, goal: 'g' }).met,
    ).toBe(false);
    expect(limitRow({ scenario: 's', ours: f(149), below: 150, goal: 'g' }).met).toBe(true);
    expect(limitRow({ scenario: 's', ours: f(150), below: 150, goal: 'g' }).met).toBe(false);
  });

  it('marks added-cost goals (at most N over the baseline) and shows the difference', async () => {
    const { addedRow } = await load('lib/rows.js');
    const f = (value: number) => ({ name: 'x', value, unit: 'ms' });
    const within = addedRow({
      scenario: 's',
      ours: f(50),
      baselines: [],
      against: f(40),
      maxAdded: 10,
      goal: 'g',
    });
    expect(within).toMatchObject({ met: true, ratioLabel: '(+10.0 ms)' });
    const over = addedRow({
      scenario: 's',
      ours: f(50.5),
      baselines: [],
      against: f(40),
      maxAdded: 10,
      goal: 'g',
    });
    expect(over.met).toBe(false);
    expect(
      addedRow({
        scenario: 's',
        ours: { ...f(1), value: null },
        baselines: [],
        against: f(40),
        maxAdded: 10,
        goal: 'g',
      }).met,
    ).toBeNull();
  });

  it('renders every column, the verdict and the notes', async () => {
    const { renderTable } = await load('lib/table.js');
    const { ratioRow, unavailableRow } = await load('lib/rows.js');
    const text: string = renderTable([
      ratioRow({
        scenario: 'export',
        ours: { name: 'ours', value: 1234.5, unit: 'events/s' },
        baselines: [{ name: 'raw', value: 2000, unit: 'events/s' }],
        against: { name: 'raw', value: 2000, unit: 'events/s' },
        min: 0.8,
        goal: '>= 0.8x raw',
      }),
      unavailableRow('bot-check', '>= 1.5x fetch', 'not built'),
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^scenario +\| ours +\| baseline\(s\) +\| ratio +\| goal +\| met\?$/);
    expect(text).toContain('1,235 events/s');
    expect(text).toContain('raw 2,000 events/s');
    expect(text).toContain('0.62x');
    expect(text).toMatch(/>= 0\.8x raw +\| NO/);
    expect(text).toContain('not available: not built');
  });
});

describe('bench/run.js arguments: --quick and --only', () => {
  it('parses the mode and the scenario list and refuses unknown names', async () => {
    const { parseArgs, SCENARIOS } = await load('run.js');
    expect(parseArgs([])).toEqual({ quick: false, only: SCENARIOS });
    expect(parseArgs(['--quick', '--only', 'batch,precheck'])).toEqual({
      quick: true,
      only: ['batch', 'precheck'],
    });
    expect(parseArgs(['--only=botcheck']).only).toEqual(['botcheck']);
    expect(() => parseArgs(['--only', 'nope'])).toThrow('unknown scenario nope');
    expect(() => parseArgs(['--fast'])).toThrow('unknown argument --fast');
  });
});

describe('profile summary: self time by function and file from a V8 CPU profile', () => {
  it('adds up samples per function, per file and inclusively', async () => {
    const { summarize } = await load('profile-summary.js');
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2] },
        { id: 2, callFrame: frame('outer', 'file:///x/dist/a.js'), children: [3] },
        { id: 3, callFrame: frame('inner', 'file:///x/node_modules/undici/b.js') },
      ],
      samples: [2, 3, 3, 3],
      timeDeltas: [1000, 1000, 1000, 1000],
    };
    const s = summarize(profile);
    expect(s.totalMs).toBe(4);
    expect(s.selfByFn[0]).toEqual(['inner undici/b.js:1', 3]);
    expect(s.selfByFile).toContainEqual(['dist/a.js', 1]);
    expect(s.totalByFn).toContainEqual(['outer dist/a.js:1', 4]);
  });
});
