import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';

describe('an interrupt with nothing to resume exits 130 with one line', () => {
  it('token decode - stops reading stdin when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runSvc(['token', 'decode', '-'], { signal: controller.signal, stdin: 'never read' });
    expect(run).toEqual({ code: 130, stdout: '', stderr: 'svc: interrupted while reading stdin\n' });
  });

  it('without the signal, token decode - reads stdin as before', async () => {
    const token = Buffer.from(
      JSON.stringify({ verificationId: '00000000-0000-4000-8000-0000000000ab' }),
    ).toString('base64');
    const run = await runSvc(['-o', 'json', 'token', 'decode', '-'], { stdin: `${token}\n` });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ verificationId: '00000000-0000-4000-8000-0000000000ab' });
  });
});
