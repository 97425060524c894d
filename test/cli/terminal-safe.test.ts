import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/error-line.js';
import { escapeForTerminal } from '../../src/cli/terminal-safe.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';

/** Any byte a terminal acts on: C0, DEL, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('escapeForTerminal shows every control character as an escape and keeps printable text', () => {
  it.each([
    ['\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    ['title\x1b]0;pwned\x07', 'title\\x1b]0;pwned\\x07'],
    ['a\nb\rc\td', 'a\\nb\\rc\\td'],
    ['nul\x00del\x7f', 'nul\\x00del\\x7f'],
    ['c1 csi \u009b2J', 'c1 csi \\x9b2J'],
    ['invoice\u202efdp.exe', 'invoice\\u202efdp.exe'],
    ['Müller GmbH – Zürich 日本', 'Müller GmbH – Zürich 日本'],
  ])('%j', (input, shown) => {
    expect(escapeForTerminal(input)).toBe(shown);
    expect(escapeForTerminal(input)).not.toMatch(RAW_CONTROL);
  });
});

describe('the one-line error never carries raw control bytes', () => {
  it('describeError keeps the text (redacted, one line); the writer escapes it, once', async () => {
    const { line } = describeError(new UsageError("bad value '\x1b[2J\x1b]0;x\x07'"));
    expect(line).toBe("bad value '\x1b[2J\x1b]0;x\x07'");
    const run = await runSvc(['\x1b[2Jfoo']);
    expect(run.stderr).toBe("svc: unknown command '\\x1b[2Jfoo'\n");
    expect(run.stderr).not.toContain('\\\\x1b');
  });

  it('in-process: an unknown command and a bad --output made of escape sequences', async () => {
    for (const args of [['\x1b[31mfoo'], ['-o', '\x1b[2Jtable\u009b', 'version']]) {
      const run = await runSvc(args);
      expect(run.code).toBe(2);
      expect(run.stderr).not.toMatch(RAW_CONTROL);
      expect(run.stderr).toContain('\\x1b');
    }
  });

  it('the built svc: stderr has the escapes, not the bytes', async () => {
    ensureBuilt();
    const child = spawnSvc(['token', 'decode', '\x1b[2J\x1b]0;pwned\x07'], {});
    expect(await exited(child)).toBe(2);
    expect(child.output().stderr).toMatch(/^svc: invalid verification token/);
    expect(child.output().stderr).not.toMatch(RAW_CONTROL);
    const unknown = spawnSvc(['\x1b[31mfoo'], {});
    expect(await exited(unknown)).toBe(2);
    expect(unknown.output().stderr).toBe("svc: unknown command '\\x1b[31mfoo'\n");
  }, 180_000);
});
