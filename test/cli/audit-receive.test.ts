import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, runSvc } from '../helpers/cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-receive-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const event = (id: string) => ({ id, occurredAt: '2026-11-30T10:00:00.000Z', type: 'captcha.updated' });

/**
 * Runs `svc audit receive --max-pushes 1` with `args`, sends it the bodies of `pushes` in turn once
 * it says where it listens, and returns the run with the statuses the pushes got.
 */
async function receive(
  args: string[],
  pushes: Array<{ body: string; headers?: Record<string, string> }>,
  env: Record<string, string> = {},
): Promise<CliRun & { statuses: number[] }> {
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const run = runSvc([...args, 'audit', 'receive', '--dir', join(dir, 'archive'), '--max-pushes', '1'], {
    env,
    onStderr: (text) => {
      const match = /receiving on (\S+)/.exec(text);
      if (match) listening(match[1] as string);
    },
  });
  const statuses: number[] = [];
  const at = await url;
  for (const push of pushes) {
    const answer = await fetch(at, { method: 'POST', body: push.body, headers: push.headers ?? {} });
    await answer.arrayBuffer();
    statuses.push(answer.status);
  }
  return { ...(await run), statuses };
}

describe('by default a refused push is a warning on stderr and stdout stays empty; totals at the end', () => {
  it('warns with the status and the reason, then reports the totals once --max-pushes were accepted', async () => {
    const run = await receive([], [{ body: '{"id": 1}' }, { body: JSON.stringify(event('evt_cli_1')) }]);
    expect(run.statuses).toEqual([400, 200]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/refused a push \(400\): the body is not an audit event \(no string "id"\)/);
    expect(run.stderr).toMatch(/received 1 pushes: 1 events spooled, 0 duplicates left out, 1 refused/);
    const spool = readdirSync(join(dir, 'archive')).filter((name) => name.startsWith('push-'));
    expect(spool).toHaveLength(1);
  });

  it('says why a signed push was refused, without its unverified webhook id, and never the secret', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = JSON.stringify(event('evt_cli_2'));
    const now = new Date();
    const signature = new Webhook(secret).sign('msg_cli_good', now, body);
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const run = await receive(
      [],
      [
        {
          body,
          headers: {
            'webhook-id': 'msg_cli_forged',
            'webhook-timestamp': timestamp,
            'webhook-signature': signature,
          },
        },
        {
          body,
          headers: {
            'webhook-id': 'msg_cli_good',
            'webhook-timestamp': timestamp,
            'webhook-signature': signature,
          },
        },
      ],
      { SVC_PUSH_SECRET: secret },
    );
    expect(run.statuses).toEqual([401, 200]);
    expect(run.stderr).toMatch(/refused a push \(401\): no signature matches/);
    expect(`${run.stdout}${run.stderr}`).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });
});

describe('with -o ndjson each answered push is one JSON line on stdout', () => {
  it('writes a line for the refused push and one for the accepted one, in the order answered', async () => {
    const run = await receive(
      ['-o', 'ndjson'],
      [{ body: '[' }, { body: JSON.stringify(event('evt_cli_3')) }],
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['status'])).toEqual([400, 200]);
    expect(lines[1]).toMatchObject({ events: 1, spooled: 1, duplicates: 0, check: 'none' });
    expect(run.stderr).not.toMatch(/refused a push/);
  });
});
