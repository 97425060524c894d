import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsView, printData } from '../../src/cli/output.js';
import { type ArchiveEdits, tamperedCopy } from '../audit/helpers.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { RAW_CONTROL, threeNights } from './archive-payloads.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');

let root: string;
let archive: string;
let copies = 0;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'svc-tampered-property-'));
  archive = join(root, 'archive');
  await threeNights(server(), archive, T0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A character a terminal acts on (C0, DEL, C1, bidi marks, U+FFFE), or any code point at all. */
const hostileChar = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\u0007',
    '\t',
    '\n',
    '\r',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009b',
    '\u061c',
    '\u200f',
    '\u202e',
    '\u2066',
    '\ufffe',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** Any text, also one that starts like a valid value (a time, a file name) and goes on with controls. */
const hostileText = fc.oneof(
  fc.string({ unit: hostileChar, maxLength: 24 }),
  fc
    .tuple(
      fc.constantFrom('2026-03-02T12:00:00.000Z', 'audit-000001.ndjson', 'run2.late1'),
      fc.string({ unit: hostileChar, maxLength: 12 }),
    )
    .map(([valid, tail]) => valid + tail),
);

/** Text fields of the manifests and the sync state that verify or gaps reads (and may print): file and path. */
const FIELDS: Array<[string, Array<string | number>]> = [
  ['manifest-000002.json', ['lateEvents', 0, 'from']],
  ['manifest-000002.json', ['lateEvents', 0, 'to']],
  ['manifest-000001.json', ['files', 0, 'name']],
  ['manifest-000002.json', ['range', 'from']],
  ['manifest-000002.json', ['previous', 'name']],
  ['manifest-000003.json', ['acknowledged', 0, 'gap']],
  ['manifest-000003.json', ['acknowledged', 0, 'reason']],
  ['sync-state.json', ['watermark']],
  ['sync-state.json', ['lastManifest', 'name']],
  ['sync-state.json', ['expired', 0]],
  ['sync-state.json', ['newest', 'id']],
];

/** The edit that puts `value` at `path` of `file`. */
function placed([file, path]: [string, Array<string | number>], value: string): ArchiveEdits {
  return {
    [file]: (json) => {
      let node = json;
      for (const key of path.slice(0, -1)) node = node[key];
      node[path.at(-1) as string | number] = value;
    },
  };
}

const noRawControl = (text: string) => expect(text.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);

describe('no printed line of audit verify or audit gaps carries a raw control, whatever a manifest or the state holds', () => {
  it('any string in any text field: stdout and stderr of both commands', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIELDS), hostileText, async (field, value) => {
        const dir = tamperedCopy(archive, join(root, `copy-${++copies}`), placed(field, value));
        try {
          for (const args of [
            ['audit', 'verify', dir],
            ['audit', 'gaps', '--dir', dir],
          ]) {
            const run = await runSvc(args);
            noRawControl(run.stdout);
            noRawControl(run.stderr);
            expect(run.stderr).not.toMatch(/\n\s+at /);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60, seed: 33 },
    );
  }, 30_000);
});

describe('no table line carries a raw control, whatever a server answer field holds', () => {
  it('any field names and values in a table', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(hostileText, hostileText), { maxLength: 4 }), async (pairs) => {
        const out = new PassThrough();
        const chunks: Buffer[] = [];
        out.on('data', (c: Buffer) => chunks.push(c));
        await printData(out, 'table', Object.fromEntries(pairs), () => fieldsView(pairs), { width: 60 });
        noRawControl(Buffer.concat(chunks).toString('utf8'));
      }),
      { numRuns: 200, seed: 34 },
    );
  });
});
