#!/usr/bin/env node
// The main jobs of svc against the in-process reference server (--sandbox): no key, no network.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'svc.js');
const work = join(root, '.tmp', 'demo');
// A fresh folder each time: the demo shows first runs (a second batch run into the same files is refused).
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

let failures = 0;
function svc(title, args, { show = true } = {}) {
  process.stdout.write(`\n$ svc ${args.join(' ')}\n# ${title}\n`);
  const res = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (show) process.stdout.write(res.stdout);
  process.stdout.write(res.stderr);
  process.stdout.write(`(exit ${res.status})\n`);
  return res;
}
function expectExit(res, codes) {
  if (!codes.includes(res.status)) failures += 1;
}

expectExit(
  svc('offline format and check-digit check', ['precheck', 'DE', 'DE 136 695 976', '-o', 'table']),
  [0],
);
expectExit(
  svc('one validation against the registry', ['--sandbox', 'validate', 'DE', '136695976', '-o', 'table']),
  [0],
);

const results = join(work, 'results.csv');
const rejects = join(work, 'rejects.csv');
const batch = svc(
  'a customer list: every row validated once, bad rows explained, outcomes joined back by webhook',
  ['--sandbox', 'batch', 'examples/data/customers.csv', '--out', results, '--rejects', rejects, '--wait'],
);
expectExit(batch, [0]);
process.stdout.write(
  `--- ${results}\n${readFileSync(results, 'utf8')}--- ${rejects}\n${readFileSync(rejects, 'utf8')}`,
);

const audit = join(work, 'audit.ndjson');
const exported = svc('the audit log of the last 24 hours as NDJSON, resumable', [
  '--sandbox',
  'audit',
  'export',
  '--out',
  audit,
]);
expectExit(exported, [0]);
if (exported.status === 0) {
  const lines = readFileSync(audit, 'utf8').trim().split('\n');
  process.stdout.write(`--- ${audit}: ${lines.length} events, first one:\n${lines[0]}\n`);
}

const testKey = `ak_${'x'.repeat(49)}`;
expectExit(
  svc('a bot-check verification with the documented test key and test id', [
    '--sandbox',
    '--api-key',
    testKey,
    'captcha',
    'result',
    '00000000-0000-0000-0000-000000000000',
    '-o',
    'table',
  ]),
  [0],
);

process.stdout.write(failures ? `\ndemo: ${failures} step(s) failed\n` : '\ndemo: every step worked\n');
process.exit(failures ? 1 : 0);
