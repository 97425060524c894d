import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { type BinRun, lines, runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';

const server = useReferenceServer();
let home: string;
let front: TlsFront;

const svc = (args: string[], env: Record<string, string> = {}): Promise<BinRun> =>
  runBin(args, {
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SVC_API_KEY: DEMO.projectKey, ...env },
  });
const validate = (baseUrl: string, before: string[] = [], env: Record<string, string> = {}) =>
  svc([...before, '--base-url', baseUrl, 'validate', 'DE', '136695976', '-o', 'json'], env);
/** The `svc: ` lines of a run (its error lines). */
const errorLines = (run: BinRun) => lines(run.stderr).filter((l) => l.startsWith('svc: '));

beforeAll(async () => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'svc-tls-cli-'));
  front = await startTlsFront(server().url);
});
afterAll(async () => {
  await front?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('a certificate from a CA Node does not trust is refused in words, with the fix', () => {
  it('one line naming the host, the reason and --ca-file, exit 1', async () => {
    const run = await validate(front.url);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `svc: certificate of localhost:${front.port} not trusted (unable to verify the first certificate): add your CA with --ca-file or NODE_EXTRA_CA_CERTS`,
    ]);
  });
  it('doctor says the same fix in the CLI words, and is fine with --ca-file', async () => {
    const refused = await svc(['--base-url', front.url, 'doctor', '-o', 'json']);
    expect(refused.code).toBe(1);
    const explanations = JSON.parse(refused.stdout).apis.map((a: { explanation: string }) => a.explanation);
    expect(explanations.join('\n')).toContain('add your CA with --ca-file or NODE_EXTRA_CA_CERTS');
    expect(explanations.join('\n')).not.toContain('the ca option');
    const trusted = await svc([
      '--ca-file',
      TEST_TLS.caFile,
      '--base-url',
      front.url,
      'doctor',
      '-o',
      'json',
    ]);
    expect(JSON.parse(trusted.stdout).apis[0]).toMatchObject({ reachable: true });
  });
  it('an unrelated CA does not make it trusted', async () => {
    const run = await validate(front.url, ['--ca-file', TEST_TLS.otherCaFile]);
    expect(run.code).toBe(1);
    expect(errorLines(run)[0]).toMatch(/^svc: certificate of localhost:\d+ not trusted/);
  });
});

describe('the CA is added to Node’s roots by --ca-file, SVC_CA_FILE, the profile, or NODE_EXTRA_CA_CERTS', () => {
  it('--ca-file', async () => {
    expect((await validate(front.url, ['--ca-file', TEST_TLS.caFile])).code).toBe(0);
  });
  it('SVC_CA_FILE', async () => {
    expect((await validate(front.url, [], { SVC_CA_FILE: TEST_TLS.caFile })).code).toBe(0);
  });
  it('profile key ca-file', async () => {
    expect((await svc(['config', 'set', 'ca-file', TEST_TLS.caFile])).code).toBe(0);
    try {
      expect((await validate(front.url)).code).toBe(0);
    } finally {
      await svc(['config', 'unset', 'ca-file']);
    }
  });
  it("NODE_EXTRA_CA_CERTS (Node's own variable, read by Node at startup)", async () => {
    expect((await validate(front.url, [], { NODE_EXTRA_CA_CERTS: TEST_TLS.caFile })).code).toBe(0);
  });
  it('--ca-file together with NODE_EXTRA_CA_CERTS keeps both (adds, never replaces)', async () => {
    const run = await validate(front.url, ['--ca-file', TEST_TLS.otherCaFile], {
      NODE_EXTRA_CA_CERTS: TEST_TLS.caFile,
    });
    expect(errorLines(run)).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('a CA file that cannot be used is one line, exit 2', () => {
  it('a file that does not exist', async () => {
    const run = await validate(front.url, ['--ca-file', join(home, 'missing.pem')]);
    expect(run.code).toBe(2);
    expect(errorLines(run)).toEqual([`svc: --ca-file ${join(home, 'missing.pem')}: the file does not exist`]);
  });
  it('a file without a PEM certificate (SVC_CA_FILE named)', async () => {
    const file = join(home, 'not-a-cert.pem');
    writeFileSync(file, 'hello\n');
    const run = await validate(front.url, [], { SVC_CA_FILE: file });
    expect(run.code).toBe(2);
    expect(errorLines(run)).toEqual([
      `svc: SVC_CA_FILE ${file}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    ]);
  });
});

describe('a scheme that does not fit the server is named', () => {
  it('https:// to a plain HTTP port', async () => {
    const run = await validate(server().url.replace('http:', 'https:'));
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `svc: the server at ${new URL(server().url).host} speaks plain HTTP: use http://`,
    ]);
  });
  it('http:// to a TLS port', async () => {
    const run = await validate(`http://127.0.0.1:${front.port}`);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([`svc: the server at 127.0.0.1:${front.port} speaks TLS: use https://`]);
  });
});
