import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { OutputPathError } from '../../src/core/errors/index.js';
import { exportAuditEvents, syncAuditArchive } from '../../src/node/index.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-audit-paths-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});
const file = (name: string) => join(dir, name);
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('exportEvents checks its paths and replaces only its own output', () => {
  it('refuses output and state as the same file; the file is not touched', async () => {
    writeFileSync(file('f'), 'precious');
    const error = await exportAuditEvents(client.audit, { output: file('f'), statePath: file('f') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as Error).message).toMatch(/the output and the state file are the same file/);
    expect(readFileSync(file('f'), 'utf8')).toBe('precious');
  });

  it('refuses an existing output no state names, and replaces it with force', async () => {
    writeFileSync(file('out.ndjson'), 'precious\n');
    server().admin.addAuditEvents({ count: 5, scope: 'project' });
    const error = await exportAuditEvents(client.audit, {
      output: file('out.ndjson'),
      statePath: file('s.json'),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /out\.ndjson already exists and is not this run's output; use --force/,
    );
    expect(readFileSync(file('out.ndjson'), 'utf8')).toBe('precious\n');
    expect(existsSync(file('s.json'))).toBe(false);
    const result = await exportAuditEvents(client.audit, {
      output: file('out.ndjson'),
      statePath: file('s.json'),
      force: true,
    });
    expect(result.events).toBeGreaterThan(0);
    expect(readFileSync(file('out.ndjson'), 'utf8')).not.toMatch(/precious/);
  });

  it('creates output and state 0600, or the fileMode given', async () => {
    await exportAuditEvents(client.audit, { output: file('a.ndjson'), statePath: file('a.json') });
    expect(modeOf(file('a.ndjson'))).toBe(0o600);
    expect(modeOf(file('a.json'))).toBe(0o600);
    await exportAuditEvents(client.audit, { output: file('b.ndjson'), fileMode: 0o640 });
    expect(modeOf(file('b.ndjson'))).toBe(0o640);
  });

  it('refuses a symlinked output, a directory as state, and a state for a device', async () => {
    writeFileSync(file('target'), 'keep');
    symlinkSync(file('target'), file('link'));
    await expect(exportAuditEvents(client.audit, { output: file('link') })).rejects.toThrow(/symbolic link/);
    expect(readFileSync(file('target'), 'utf8')).toBe('keep');
    await expect(exportAuditEvents(client.audit, { output: file('o'), statePath: dir })).rejects.toThrow(
      `state file ${dir} is a directory, not a file`,
    );
    await expect(
      exportAuditEvents(client.audit, { output: '/dev/null', statePath: file('s') }),
    ).rejects.toThrow(/cannot be resumed, so it takes no state file/);
    const streamed = await exportAuditEvents(client.audit, { output: '/dev/null' });
    expect(streamed.countMatches).toBe(true);
  });
});

describe('sync replaces no file of DIR that its state does not name, unless force', () => {
  it("refuses a foreign file where the run's file goes; force replaces it", async () => {
    const archive = file('archive');
    server().admin.freezeClock(true);
    await syncAuditArchive(client.audit, { dir: archive, lagMs: 0 });
    const names = readdirSync(archive).sort();
    for (const name of names) expect(modeOf(join(archive, name))).toBe(0o600);
    server().admin.advanceClock(60_000);
    writeFileSync(join(archive, 'audit-000002.ndjson'), 'not ours\n');
    const error = await syncAuditArchive(client.audit, { dir: archive, lagMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as Error).message).toMatch(
      /audit-000002\.ndjson already exists and is not this run's output/,
    );
    expect(readFileSync(join(archive, 'audit-000002.ndjson'), 'utf8')).toBe('not ours\n');
    const forced = await syncAuditArchive(client.audit, {
      dir: archive,
      lagMs: 0,
      force: true,
      fileMode: 0o640,
    });
    expect(forced.run).toBe(2);
    expect(modeOf(join(archive, 'manifest-000002.json'))).toBe(0o640);
  });

  it('refuses a DIR that is a file', async () => {
    writeFileSync(file('plain'), 'x');
    await expect(syncAuditArchive(client.audit, { dir: file('plain') })).rejects.toThrow(
      /plain is not a directory/,
    );
  });
});
