import { describe, expect, it } from 'vitest';
import { cmdScript, extractBlocks, POWERSHELL_REASON, shellScript } from './doc-blocks.js';

const fence = '```';
const one = (info: string) => {
  const [block] = extractBlocks(`${fence}${info}\necho hi\n${fence}\n`, 'x.md');
  return { kind: block?.kind, reason: block?.reason };
};

describe('a mark that skips a block may say why; a block that runs may not', () => {
  it('the quoted reason follows the mark into the report', () => {
    expect(one('sh real-service "a project with gaps"')).toEqual({
      kind: 'parse',
      reason: 'real-service: a project with gaps',
    });
    expect(one('ts real-service "a live key"')).toEqual({
      kind: 'typecheck',
      reason: 'real-service: a live key',
    });
    expect(one('sh parse-only')).toEqual({ kind: 'parse', reason: 'placeholders' });
  });

  it('a reason on a block that runs, an unknown mark or an unquoted extra word fails as unmarked', () => {
    expect(one('sh background "why"').kind).toBe('unmarked');
    expect(one('sh replayed "why"').kind).toBe('unmarked');
    expect(one('sh real-service needs a key').kind).toBe('unmarked');
    expect(one('sh someday').kind).toBe('unmarked');
    expect(one('').kind).toBe('unmarked');
  });
});

describe('an admin-route example is replayed, not parsed', () => {
  it("'sh replayed' is a block the runner sends", () => {
    expect(one('sh replayed')).toEqual({ kind: 'replay', reason: undefined });
  });
});

describe('each command of a shell block must end with the exit code its `# exit N` comment names', () => {
  it('a comment starting with exit N sets the expected code; exit in prose does not', () => {
    const script = shellScript('svc a   # exit 3: rejected\nsvc b   # again after exit 75: resumes\nsvc c');
    expect(script).toContain('if [ "$rc" -ne 3 ]');
    expect(script.match(/-ne 0 \]/g)).toHaveLength(2);
  });
});

describe('a cmd block runs each command with svc replaced, and stops at the first that does not exit 0', () => {
  it('svc at the start of a command becomes the given program; set and rem lines stay; CR/LF line ends', () => {
    const script = cmdScript(
      'rem a comment\nset SVC_API_KEY=ak_x\nsvc validate DE 1\nsvcx stays',
      '"node.exe" "svc.js"',
    );
    const lines = script.split('\r\n');
    expect(lines).toContain('set SVC_API_KEY=ak_x');
    expect(lines).toContain('"node.exe" "svc.js" validate DE 1');
    expect(lines).toContain('svcx stays');
    expect(lines.filter((l) => l.startsWith('if not "%ERRORLEVEL%"=="0"'))).toHaveLength(2);
    expect(script).not.toContain('rem a comment');
  });

  it('powershell blocks are marked as not runnable, with the reason', () => {
    expect(one('powershell')).toEqual({ kind: 'parse', reason: POWERSHELL_REASON });
    expect(one('cmd')).toEqual({ kind: 'run', reason: undefined });
  });
});
