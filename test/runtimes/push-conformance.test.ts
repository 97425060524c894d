import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import {
  BIN,
  direct,
  hosted,
  isAvailable,
  lastLineJson,
  launcherTail,
  linkPackage,
  NODE22,
  type Runtime,
  run,
} from './runners.js';

// The push receiver's checks (test/runtimes/push-conformance.mjs) in each runtime the `svc-sdk/push`
// entry promises to run in, started as test/runtimes/runners.ts says. The pushes are signed here
// with the standardwebhooks package and gzipped with node:zlib, so the runtimes only verify and
// inflate. Each rule expects its documented outcome in every runtime, and the last expects every
// runtime to observe exactly what Node does.

/** `package`: `svc-sdk/push` by name, the build chosen by the runtime's conditions; `web`: dist/web/push.js. */
type Entry = 'package' | 'web';

const DENO = ['run', '--no-prompt', '--node-modules-dir=manual'];
const RUNTIMES: Runtime<Entry>[] = [
  direct('Node 20', 'package', process.execPath),
  direct('Node 22', 'package', NODE22),
  direct('Node 20, web build', 'web', process.execPath),
  direct('Deno (no permissions)', 'package', join(BIN, 'deno'), DENO),
  direct('Bun', 'package', join(BIN, 'bun')),
  hosted('edge-runtime', 'package', 'edge-runtime'),
  hosted('workerd, nodejs_compat off', 'package', 'workerd'),
  hosted('workerd, nodejs_compat on', 'package', 'workerd', ['nodejs_compat']),
];
const AVAILABLE = new Map(RUNTIMES.map((runtime) => [runtime.name, isAvailable(runtime)]));

const NOW_MS = 1_760_000_000_000;
const NOW = NOW_MS / 1000;
/** The maxBytes of the at-limit and over-limit bodies. */
const LIMIT = 64 * 1024;
const EVENTS = [
  { id: 'evt_1', occurredAt: '2025-10-09T08:00:00Z', actor: 'Müller' },
  { id: 'evt_2', occurredAt: '2025-10-09T08:00:01Z', actor: 'Zoë' },
  { id: 'evt_3', occurredAt: '2025-10-09T08:00:02Z', actor: 'Ana' },
];

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A body and its Standard Webhooks headers, signed by the reference library at `seconds`. */
function signedPush(secret: string, seconds: number) {
  const id = 'msg_conformance';
  const body = JSON.stringify(EVENTS);
  const signature = new Webhook(secret).sign(id, new Date(seconds * 1000), body);
  return {
    body,
    headers: { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature },
  };
}

/** One event whose JSON text is exactly `bytes` long. */
function eventOfLength(bytes: number): string {
  const head = JSON.stringify({ id: 'evt_pad', occurredAt: '2025-10-09T08:00:00Z', pad: '' });
  return head.replace('"pad":""', `"pad":"${'a'.repeat(bytes - head.length)}"`);
}

function configOf() {
  const secret = newSecret();
  // One line ends in CRLF and the body in a newline, as senders write them.
  const ndjson = gzipSync(
    `${JSON.stringify(EVENTS[0])}\r\n${JSON.stringify(EVENTS[1])}\n${JSON.stringify(EVENTS[2])}\n`,
  );
  return {
    nowMs: NOW_MS,
    secret,
    otherSecret: newSecret(),
    signed: signedPush(secret, NOW),
    stale: signedPush(secret, NOW - 360),
    bearer: randomBytes(24).toString('base64url'),
    events: EVENTS,
    limit: LIMIT,
    bodies: {
      gzipNdjson: base64(ndjson),
      gzipProbe: base64(gzipSync('{"content":"tests"}')),
      gzipAtLimit: base64(gzipSync(eventOfLength(LIMIT))),
      gzipOverLimit: base64(gzipSync(eventOfLength(LIMIT + 1))),
      gzipBomb: base64(gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20))),
      gzipCutShort: base64(ndjson.subarray(0, ndjson.length >> 1)),
      gzipNoTrailer: base64(ndjson.subarray(0, ndjson.length - 8)),
      gzipTrailingJunk: base64(Buffer.concat([ndjson, Buffer.from('junk')])),
    },
    challenge: 'ckRmR2pIZ3Y0d0tMc3lNeU1WcVhBdw',
  };
}

/** A launcher with static imports and the config inlined: the same file for every runtime. */
function writeLauncher(dir: string, runtime: Runtime<Entry>, config: unknown): string {
  const file = join(dir, 'launcher.mjs');
  linkPackage(dir);
  const entry = runtime.entry === 'web' ? join(ROOT, 'dist', 'web', 'push.js') : 'svc-sdk/push';
  const suite = join(ROOT, 'test', 'runtimes', 'push-conformance.mjs');
  const imports = [
    `import * as lib from ${JSON.stringify(entry)};`,
    `import { runPushConformance } from ${JSON.stringify(suite)};`,
  ];
  const tail = launcherTail(runtime.launcher, `runPushConformance(lib, ${JSON.stringify(config)})`);
  writeFileSync(file, `${imports.join('\n')}\n${tail}\n`);
  return file;
}

type Observed = Record<string, unknown>;
const results = new Map<string, Record<string, Observed>>();
let config: ReturnType<typeof configOf>;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  ensureBuilt();
  config = configOf();
  // One after another: the runtimes start in a few seconds each and the cores are shared.
  for (const runtime of RUNTIMES.filter((r) => AVAILABLE.get(r.name))) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-push-conformance-'));
    dirs.push(dir);
    try {
      const [command, args] = await runtime.command(writeLauncher(dir, runtime, config), dir);
      results.set(runtime.name, lastLineJson(await run(command, args)));
    } catch (error) {
      results.set(runtime.name, { launch: { failed: String(error) } });
    }
  }
}, 600_000);

/** One test per runtime, skipped where the runtime is missing, given what it observed. */
function inEachRuntime(test: (observed: Record<string, Observed>, runtime: Runtime<Entry>) => void): void {
  for (const runtime of RUNTIMES) {
    (AVAILABLE.get(runtime.name) ? it : it.skip)(runtime.name, () => {
      const observed = results.get(runtime.name) ?? {};
      expect(observed['launch']).toBeUndefined();
      test(observed, runtime);
    });
  }
}

/** Runtimes without `DecompressionStream`: Vercel's Edge Runtime lists none (vercel/edge-runtime#750). */
const NO_DECOMPRESSION = new Set(['edge-runtime']);
const NOT_INFLATED = {
  ok: false,
  status: 415,
  reason: 'gzip cannot be inflated here: the runtime has no DecompressionStream',
};
/** The checks whose body is gzip. */
const GZIP_CHECKS = [
  'gzipNdjson',
  'gzipSniffed',
  'cloudflareProbe',
  'atLimit',
  'overLimit',
  'gzipBomb',
  'gzipCutShort',
  'gzipNoTrailer',
  'gzipTrailingJunk',
];
/** What a gzip check observes in `runtime`: `inflated`, or the 415 where it cannot inflate. */
const gzipped = (runtime: Runtime<Entry>, inflated: object) =>
  NO_DECOMPRESSION.has(runtime.name) ? NOT_INFLATED : inflated;

const refused = (reason: string) => ({ ok: false, reason });
const signedOk = { ok: true, check: 'standard-webhooks', id: 'msg_conformance', timestamp: NOW };
const parsedOk = (form: string, gzip: boolean, ids: string[], probe = false) => ({
  ok: true,
  form,
  gzip,
  probe,
  ids,
  lines: ids.length,
});
const EVENT_IDS = EVENTS.map((event) => event.id);
const CORRUPT = { ok: false, status: 400, reason: 'the gzip body is corrupt or cut short' };

describe('gzip is inflated where the runtime has DecompressionStream, and a 415 where it has none', () => {
  inEachRuntime((observed, runtime) =>
    expect(observed['runtime']).toEqual({ decompressionStream: !NO_DECOMPRESSION.has(runtime.name) }),
  );
});

describe('a push signed per Standard Webhooks with the secret verifies, from a header record or a Headers', () => {
  inEachRuntime((observed) => {
    expect(observed['signed']).toEqual(signedOk);
    expect(observed['signedWebHeaders']).toEqual(signedOk);
  });
});

describe('signAuditPush signs as the standardwebhooks package does', () => {
  inEachRuntime((observed) => expect(observed['signsAsStandardWebhooks']).toEqual({ same: true }));
});

describe('a body with one byte changed is refused', () => {
  inEachRuntime((observed) => expect(observed['oneByteChanged']).toEqual(refused('no signature matches')));
});

describe('a timestamp more than 5 minutes off is refused', () => {
  inEachRuntime((observed) =>
    expect(observed['sixMinutesOff']).toEqual(refused('timestamp 360 s off (tolerance 300 s)')),
  );
});

describe('a push signed by a secret no longer in the list is refused', () => {
  inEachRuntime((observed) => expect(observed['secretRemoved']).toEqual(refused('no signature matches')));
});

describe('during a rotation a push signed by either secret verifies', () => {
  inEachRuntime((observed) => expect(observed['rotation']).toEqual(signedOk));
});

describe('a bearer secret passes only when it matches', () => {
  inEachRuntime((observed) => {
    expect(observed['bearer']).toEqual({ ok: true, check: 'bearer' });
    expect(observed['bearerWrong']).toEqual(refused('bearer secret does not match'));
  });
});

describe('a gzip NDJSON body is inflated and read line by line, gzip found by its magic bytes too', () => {
  inEachRuntime((observed, runtime) => {
    expect(observed['gzipNdjson']).toEqual(gzipped(runtime, parsedOk('ndjson', true, EVENT_IDS)));
    expect(observed['gzipSniffed']).toEqual(gzipped(runtime, parsedOk('ndjson', true, EVENT_IDS)));
  });
});

describe('a JSON array body is read as its events', () => {
  inEachRuntime((observed) => expect(observed['array']).toEqual(parsedOk('array', false, EVENT_IDS)));
});

describe("an Okta event hook's envelope is read as its data.events", () => {
  inEachRuntime((observed) =>
    expect(observed['oktaEnvelope']).toEqual(parsedOk('envelope', false, EVENT_IDS)),
  );
});

describe("Cloudflare Logpush's gzipped test delivery is a probe without events", () => {
  inEachRuntime((observed, runtime) =>
    expect(observed['cloudflareProbe']).toEqual(gzipped(runtime, parsedOk('single', true, [], true))),
  );
});

describe('the size cap counts inflated bytes: at the cap is read, one byte past it is a 413', () => {
  inEachRuntime((observed, runtime) => {
    expect(observed['atLimit']).toEqual(gzipped(runtime, parsedOk('single', true, ['evt_pad'])));
    expect(observed['overLimit']).toEqual(
      gzipped(runtime, { ok: false, status: 413, reason: `larger than ${LIMIT} bytes once inflated` }),
    );
    expect(observed['gzipBomb']).toEqual(
      gzipped(runtime, { ok: false, status: 413, reason: 'larger than 10485760 bytes once inflated' }),
    );
  });
});

describe('a gzip body cut short, without its trailer or with bytes after it is a 400', () => {
  inEachRuntime((observed, runtime) => {
    expect(observed['gzipCutShort']).toEqual(gzipped(runtime, CORRUPT));
    expect(observed['gzipNoTrailer']).toEqual(gzipped(runtime, CORRUPT));
    expect(observed['gzipTrailingJunk']).toEqual(gzipped(runtime, CORRUPT));
  });
});

describe('a malformed body is a 400 naming where', () => {
  inEachRuntime((observed, runtime) => {
    // The character only where the engine's JSON.parse names it: V8 does, JavaScriptCore (Bun) not.
    const at = (character: number) => (runtime.name === 'Bun' ? '' : ` (at character ${character})`);
    expect(observed['malformedNdjson']).toEqual({
      ok: false,
      status: 400,
      reason: `line 2 is not JSON${at(16)}`,
    });
    expect(observed['malformedJson']).toEqual({
      ok: false,
      status: 400,
      reason: `the body is not JSON${at(17)}`,
    });
    expect(observed['notAnEvent']).toEqual({
      ok: false,
      status: 400,
      reason: 'item 2 is not an audit event (no string "occurredAt")',
    });
  });
});

describe("Okta's verification challenge is answered with its value", () => {
  inEachRuntime((observed) =>
    expect(observed['challenge']).toEqual({
      record: JSON.stringify({ verification: config.challenge }),
      webHeaders: JSON.stringify({ verification: config.challenge }),
      none: null,
    }),
  );
});

describe('every runtime observes what Node 20 does, but for the differences above', () => {
  /** Node's observations with what `runtime` is expected to differ in put as it differs. */
  function asIn(runtime: Runtime<Entry>): Record<string, unknown> {
    const node: Record<string, Observed> = structuredClone(results.get('Node 20') ?? {});
    if (NO_DECOMPRESSION.has(runtime.name)) {
      node['runtime'] = { decompressionStream: false };
      for (const name of GZIP_CHECKS) node[name] = NOT_INFLATED;
    }
    if (runtime.name === 'Bun') {
      for (const name of ['malformedNdjson', 'malformedJson'])
        node[name] = {
          ...node[name],
          reason: String(node[name]?.['reason']).replace(/ \(at character \d+\)$/, ''),
        };
    }
    return node;
  }
  inEachRuntime((observed, runtime) => expect(observed).toEqual(asIn(runtime)));
});
