import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * How a fenced block of the docs is checked. The info string says it: the language, then at
 * most one mark.
 *
 * | info string              | checked how                                                        |
 * | ------------------------ | ------------------------------------------------------------------ |
 * | `sh` (`bash`, `shell`)   | run, each command's exit code compared with its `# exit N` comment  |
 * | `sh background`          | started, must print a first line (stdout, or stderr), then stopped  |
 * | `sh real-service`        | needs the real service: parsed only (`bash -n`)                     |
 * | `sh parse-only`          | placeholders (`$TOKEN`, your own files): parsed only                |
 * | `sh replayed`            | an admin-route example: its request sent to a reference server, the |
 * |                          | status compared with the `Answers:` line above it                   |
 * | `sh setup`               | the setup commands: CI runs them itself (.ci/run, demo.test.ts)     |
 * | `ts` (`typescript`)      | type-checked and run against a reference server                     |
 * | `ts real-service`        | type-checked only                                                   |
 * | `ts fragment`            | part of a larger program: parsed only                               |
 * | `cmd` (`bat`)            | Windows cmd: run under Wine (`wine cmd /c`, test/docs/windows-      |
 * |                          | blocks.test.ts), each command must exit 0                           |
 * | `powershell` (`pwsh`)    | not run: Wine has no PowerShell (the reason is in the report)       |
 * | `text`, `json`, ...      | data or output shown to the reader: not code, not run               |
 *
 * A mark that skips a block (`real-service`, `parse-only`, `setup`, `fragment`) may be followed by
 * its reason in double quotes, which the report shows: ```` ```sh real-service "a project's audit
 * log with gaps" ````. A block with no info string, or a mark this table does not name, fails the
 * doc test.
 */
export type BlockKind = 'run' | 'background' | 'replay' | 'parse' | 'typecheck' | 'data' | 'unmarked';

export interface DocBlock {
  /** Path relative to the project root, e.g. `docs/batch.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: 'sh' | 'ts' | 'cmd' | 'powershell' | 'data' | 'none';
  kind: BlockKind;
  /** Why a block is not run, for the report. */
  reason?: string;
  body: string;
}

const SHELL = new Set(['sh', 'bash', 'shell']);
const TYPESCRIPT = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const CMD = new Set(['cmd', 'bat', 'batch']);
const POWERSHELL = new Set(['powershell', 'pwsh', 'ps1']);

/** Why a PowerShell block is not run. */
export const POWERSHELL_REASON = 'PowerShell: Wine has no PowerShell';
const DATA = new Set([
  'text',
  'console',
  'txt',
  'json',
  'jsonc',
  'ndjson',
  'csv',
  'yaml',
  'yml',
  'toml',
  'html',
  'ini',
  'sql',
  'diff',
  'http',
  'pem',
]);

/** Marks that skip a block, with the reason the report gives when the block names none. */
const SKIPPING: Record<string, string> = {
  'real-service': 'needs the real service',
  'parse-only': 'placeholders',
  setup: 'setup, run by .ci/run and demo.test.ts',
  fragment: 'a fragment',
};

function classify(info: string): Pick<DocBlock, 'lang' | 'kind' | 'reason'> {
  const quoted = /^(\S+\s+\S+)\s+"([^"]+)"\s*$/.exec(info.trim());
  const [lang = '', mark, ...rest] = (quoted?.[1] ?? info).trim().split(/\s+/);
  if (lang === '') return { lang: 'none', kind: 'unmarked', reason: 'a fence without a language' };
  if (rest.length > 0) return { lang: 'none', kind: 'unmarked', reason: `more than one mark: ${info}` };
  if (quoted && (mark === undefined || SKIPPING[mark] === undefined)) {
    return {
      lang: 'none',
      kind: 'unmarked',
      reason: `a reason given to a mark that runs the block: ${info}`,
    };
  }
  const why = (mark: string) => (quoted ? `${mark}: ${quoted[2]}` : SKIPPING[mark]);
  if (DATA.has(lang)) {
    return mark === undefined
      ? { lang: 'data', kind: 'data' }
      : { lang: 'none', kind: 'unmarked', reason: `unknown mark '${mark}'` };
  }
  if (SHELL.has(lang)) {
    if (mark === undefined) return { lang: 'sh', kind: 'run' };
    if (mark === 'background') return { lang: 'sh', kind: 'background' };
    if (mark === 'replayed') return { lang: 'sh', kind: 'replay' };
    if (mark === 'real-service' || mark === 'parse-only' || mark === 'setup')
      return { lang: 'sh', kind: 'parse', reason: why(mark) };
  }
  if (CMD.has(lang) && mark === undefined) return { lang: 'cmd', kind: 'run' };
  if (POWERSHELL.has(lang) && mark === undefined)
    return { lang: 'powershell', kind: 'parse', reason: POWERSHELL_REASON };
  if (TYPESCRIPT.has(lang)) {
    if (mark === undefined) return { lang: 'ts', kind: 'run' };
    if (mark === 'real-service') return { lang: 'ts', kind: 'typecheck', reason: why(mark) };
    if (mark === 'fragment') return { lang: 'ts', kind: 'parse', reason: why(mark) };
  }
  return { lang: 'none', kind: 'unmarked', reason: `unknown language or mark: ${info}` };
}

/** The fenced blocks of one Markdown text (``` and ~~~ fences, nested longer fences respected). */
export function extractBlocks(markdown: string, file: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const fence = open[2] as string;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j += 1) {
      const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (close.test(lines[j] as string)) break;
      body.push(lines[j] as string);
    }
    blocks.push({ file, line: i + 1, ...classify(open[3] as string), body: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** README.md and every Markdown file under docs/ (sorted), relative to `root`. */
export function docFiles(root: string): string[] {
  const files = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) files.push(relative(root, full));
    }
  };
  try {
    walk(join(root, 'docs'));
  } catch {
    // no docs/ yet
  }
  return files.sort((a, b) => (a === 'README.md' ? -1 : b === 'README.md' ? 1 : a.localeCompare(b)));
}

/** Every block of the README and the guides. */
export function allBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((file) => extractBlocks(readFileSync(join(root, file), 'utf8'), file));
}

/**
 * A shell block as a script that runs each command and compares its exit code with the number in
 * its trailing comment when that starts with `exit N` (0 when there is none: `# after exit 75` is
 * prose). Lines ending in `\`, `|`, `&&` or `||` continue a command. A block that needs more (loops, functions, here-documents) runs as a whole
 * under `set -e`.
 */
export function shellScript(body: string): string {
  const commands: { text: string; expect: number; line: number }[] = [];
  const lines = body.split('\n');
  if (lines.some((l) => /<<|^\s*(for|while|if|case|function)\b|\(\)\s*\{/.test(l))) {
    return `set -eo pipefail\n${body}\n`;
  }
  let current: string[] = [];
  let start = 0;
  lines.forEach((raw, index) => {
    const text = raw.trimEnd();
    if (current.length === 0 && (text.trim() === '' || text.trim().startsWith('#'))) return;
    if (current.length === 0) start = index + 1;
    current.push(text);
    const code = text.replace(/\s+#.*$/, '');
    if (/(\\|\||&&)$/.test(code)) return;
    const joined = current.join('\n');
    const expect = /#\s*exit (\d+)\b[^\n]*$/.exec(joined);
    commands.push({ text: joined, expect: expect ? Number(expect[1]) : 0, line: start });
    current = [];
  });
  return [
    'set -o pipefail',
    ...commands.map(
      (c) =>
        `${c.text}\nrc=$?; if [ "$rc" -ne ${c.expect} ]; then echo "doc line +${c.line}: exit $rc, expected ${c.expect}" >&2; exit 1; fi`,
    ),
    '',
  ].join('\n');
}

/**
 * A cmd block as a batch file for `wine cmd /c`: each command runs with `svc` replaced by
 * `svcCommand` (the Windows program and its arguments, quoted), and must exit 0. `svc` is not
 * found through a `svc.cmd` on PATH: Wine's cmd loses a called batch file's exit code (1 for 2).
 * `set` lines and `rem` comments are kept as they are.
 */
export function cmdScript(body: string, svcCommand: string): string {
  const out = ['@echo off'];
  body.split('\n').forEach((raw, index) => {
    const text = raw.trim();
    if (text === '' || /^(rem\b|::)/i.test(text)) return;
    if (/^set\s/i.test(text)) {
      out.push(text);
      return;
    }
    out.push(text.replace(/^svc(?=\s|$)/, svcCommand));
    out.push(
      `if not "%ERRORLEVEL%"=="0" (echo doc line +${index + 1}: exit %ERRORLEVEL%, expected 0 1>&2 & exit /b 1)`,
    );
  });
  return `${out.join('\r\n')}\r\n`;
}
