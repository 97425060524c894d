import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/built-cli.js';

// Issue 41 item 7: `-o csv` takes --bom and --delimiter as `svc batch` does, so Excel opens the
// CSV of any command with its non-ASCII text intact and split into columns (a German Excel splits
// at `;`). The bytes of the built bin/svc.js are checked.

let work: string;
beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-csv-style-'));
  writeFileSync(join(work, 'in.csv'), 'countryCode,vatId\nDE,136695976\n');
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The raw stdout bytes, stderr and exit code of `node bin/svc.js ...args`. */
function svcBytes(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', HOME: work, XDG_CONFIG_HOME: join(work, 'config'), ...env },
    timeout: 20_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const validate = ['--sandbox', 'validate', 'DE', '136695976', '-o', 'csv'];

describe('--bom starts the CSV with the bytes EF BB BF', () => {
  it('validate -o csv --bom; without --bom the header comes first', () => {
    const withBom = svcBytes([...validate, '--bom']);
    expect(withBom.code).toBe(0);
    expect(withBom.stdout.subarray(0, 3)).toEqual(BOM);
    expect(withBom.stdout.subarray(3, 11).toString()).toBe('outcome,');
    const without = svcBytes(validate);
    expect(without.stdout.subarray(0, 8).toString()).toBe('outcome,');
  });

  it('SVC_OUTPUT=csv is CSV output too: --bom applies', () => {
    const run = svcBytes(['--sandbox', 'audit', 'list', '--bom'], { SVC_OUTPUT: 'csv' });
    expect(run.code).toBe(0);
    expect(run.stdout.subarray(0, 3)).toEqual(BOM);
    expect(run.stdout.subarray(3).toString().split('\n')[0]).toBe('id,occurredAt,type,actor,subject');
  });
});

describe("--delimiter ';' and --delimiter tab split the fields, formula-safe as batch writes them", () => {
  it("';': fields split at ;, a field holding ; quoted, a formula neutralised", () => {
    const run = svcBytes(['precheck', 'DE', '=1+1;x', '-o', 'csv', '--delimiter', ';']);
    // precheck exits 2 for a value that fails the check; the CSV is printed all the same.
    expect(run.code).toBe(2);
    expect(run.stdout.toString()).toBe(
      'countryCode;valid;code;normalized;canonical\nDE;false;FORMAT;"\'=1+1;X";\'-\n',
    );
  });

  it('tab (the word, or a tab character): fields split at tabs', () => {
    for (const delimiter of ['tab', '\t']) {
      const run = svcBytes([...validate, '--delimiter', delimiter]);
      expect(run.code).toBe(0);
      const [head, row] = run.stdout.toString().split('\n');
      expect(head?.split('\t').slice(0, 3)).toEqual(['outcome', 'status', 'provider']);
      expect(row?.split('\t')).toHaveLength(head?.split('\t').length ?? 0);
    }
  });

  it('batch keeps its own --bom and --delimiter (the same parser): CSV results on stdout', () => {
    const run = svcBytes(['--sandbox', 'batch', 'in.csv', '-o', 'csv', '--bom', '--delimiter', 'tab']);
    expect(run.code).toBe(0);
    expect(run.stdout.subarray(0, 3)).toEqual(BOM);
    expect(run.stdout.subarray(3).toString().split('\n')[0]?.split('\t').slice(0, 2)).toEqual([
      'countryCode',
      'vatId',
    ]);
    const bad = svcBytes(['--sandbox', 'batch', 'in.csv', '-o', 'csv', '--delimiter', '|']);
    expect([bad.code, bad.stderr]).toEqual([2, "svc: --delimiter must be , ; or tab, got '|'\n"]);
  });
});

describe('--bom or --delimiter without CSV output is a usage error: one line, exit 2', () => {
  it('-o json --bom, a table with --delimiter, a bad delimiter', () => {
    const json = svcBytes(['--sandbox', 'validate', 'DE', '136695976', '-o', 'json', '--bom']);
    expect([json.code, json.stdout.length, json.stderr]).toEqual([
      2,
      0,
      'svc: --bom is for CSV output: add -o csv (this run prints json)\n',
    ]);
    const table = svcBytes(['--sandbox', 'validate', 'DE', '136695976', '-o', 'table', '--delimiter', ';']);
    expect([table.code, table.stderr]).toEqual([
      2,
      'svc: --delimiter is for CSV output: add -o csv (this run prints table)\n',
    ]);
    const bad = svcBytes([...validate, '--delimiter', 'pipe']);
    expect([bad.code, bad.stderr]).toEqual([2, "svc: --delimiter must be , ; or tab, got 'pipe'\n"]);
  });
});
