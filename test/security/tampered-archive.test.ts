import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveEdits, tamperedCopy } from '../audit/helpers.js';
import { ensureBuilt } from '../helpers/build.js';
import { runSvc } from '../helpers/cli.js';
import { PTY_UNAVAILABLE, runInPty } from '../helpers/pty.js';
import { useReferenceServer } from '../helpers/server.js';
import { PAYLOAD, RAW_CONTROL, threeNights } from './archive-payloads.js';

// Issue 33: a tampered archive rewrote the screen of the tool meant to catch it.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
/** A file name with a screen clear and a right-to-left override. */
const HOSTILE_NAME = 'audit-000001.ndjson\u001b[2J\u202elmth.exe';

let root: string;
let archive: string;
let copies = 0;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'svc-tampered-archive-'));
  archive = join(root, 'archive');
  await threeNights(server(), archive, T0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const copy = (edits: ArchiveEdits) => tamperedCopy(archive, join(root, `copy-${++copies}`), edits);

/** What each case tampers. */
const CASES = ['lateEvents[0].from', 'a file name', 'an acknowledgement reason'] as const;

/** The tampered archives of the issue, and one whose payload sits in free text (an acknowledgement's reason). */
const cases = (): Record<(typeof CASES)[number], string> => ({
  // Manifest 3 acknowledged the gap; without that it is open, and verify names it on stdout.
  'lateEvents[0].from': copy({
    'manifest-000002.json': (m) => {
      m.lateEvents[0].from = PAYLOAD;
    },
    'manifest-000003.json': (m) => {
      delete m.acknowledged;
    },
  }),
  'a file name': copy({
    'manifest-000001.json': (m) => {
      m.files[0].name = HOSTILE_NAME;
    },
  }),
  'an acknowledgement reason': copy({
    'manifest-000003.json': (m) => {
      m.acknowledged[0].reason = `${PAYLOAD}\u202e\u009b8m`;
    },
  }),
});

function expectNoRawControl(text: string): void {
  expect(text.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
}

describe('a tampered archive cannot drive the terminal of audit verify and audit gaps', () => {
  it('the archive as sync wrote it is whole (the tampering is what the tests add)', async () => {
    const run = await runSvc(['audit', 'verify', archive]);
    expect(run.stderr).toMatch(/archive whole: 3 runs/);
    expect(run.code).toBe(0);
  });

  it.each(CASES)('%s: verify exits 1, says not whole, prints no control', async (which) => {
    const dir = cases()[which];
    const run = await runSvc(['audit', 'verify', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^archive not whole: \d+ problems in \d+ runs$/m);
    expectNoRawControl(run.stdout);
    expectNoRawControl(run.stderr);
    expect(`${run.stdout}${run.stderr}`).not.toContain('\\\\x1b');
  });

  it('lateEvents[0].from and a file name: the manifest is named as not one sync writes', async () => {
    const { 'lateEvents[0].from': late, 'a file name': named } = cases();
    expect((await runSvc(['audit', 'verify', late])).stdout).toMatch(
      /^manifest-000002\.json: not a manifest sync writes \(lateEvents\.0\.from: /m,
    );
    expect((await runSvc(['audit', 'verify', named])).stdout).toMatch(
      /^manifest-000001\.json: not a manifest sync writes \(files\.0\.name: /m,
    );
  });

  it('free text that passes validation is shown with its controls escaped, once', async () => {
    const run = await runSvc(['audit', 'verify', cases()['an acknowledgement reason']]);
    expect(run.stderr).toContain(
      'acknowledged in manifest-000003.json: \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mFAKE\\u202e\\x9b8m',
    );
  });

  it.each(CASES)('%s: gaps prints no control', async (which) => {
    const dir = cases()[which];
    const run = await runSvc(['audit', 'gaps', '--dir', dir]);
    expectNoRawControl(run.stdout);
    expectNoRawControl(run.stderr);
    if (which === 'an acknowledgement reason') {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^run2\.late1 acknowledged by manifest-000003\.json: late/m);
    } else {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^svc: manifest-00000\d\.json: not a manifest sync writes \(.*\n$/);
    }
  });
});

describe.skipIf(PTY_UNAVAILABLE)(
  'on a real terminal: the built svc shows the tampered archive escaped',
  () => {
    beforeAll(() => ensureBuilt(), 180_000);

    it('audit verify and audit gaps, through bin/svc.js on a pseudo-terminal', async () => {
      const all = cases();
      for (const [args, code] of [
        [['audit', 'verify', all['lateEvents[0].from']], 1],
        [['audit', 'verify', all['a file name']], 1],
        [['audit', 'verify', all['an acknowledgement reason']], 1],
        [['audit', 'gaps', '--dir', all['lateEvents[0].from']], 1],
      ] as const) {
        const run = runInPty(args, { env: { NO_COLOR: '1' } });
        try {
          expect(await run.exit).toBe(code);
          // The terminal ends lines with CR LF; anything else raw is a control from the archive.
          const shown = run.raw().replace(/\r\n/g, '\n');
          expectNoRawControl(shown);
          expect(shown).not.toContain('PWNED\u0007');
          if (args[1] === 'verify') expect(shown).toMatch(/archive not whole: \d+ problems/);
        } finally {
          run.dispose();
        }
      }
    }, 120_000);
  },
);
