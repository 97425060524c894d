import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForTerminal, writeHumanLine } from '../../src/cli/terminal-safe.js';
import { ROOT } from '../helpers/build.js';
import { runSvc } from '../helpers/cli.js';

/** Raw terminal controls: C0 except the line feed, DEL, C1, bidi marks, overrides and isolates. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const COMMANDS = join(ROOT, 'src/cli/commands');

/**
 * Where a command may still touch a process stream itself, and why. Anything else must go through
 * the context's writers (`line`, `info`, `warn`, `notice`, `print`, `data`, `dataOut`).
 */
const ALLOWED: Array<[file: string, use: string]> = [
  // The hidden prompt of `config set` draws on the terminal (it escapes its prompt text itself).
  ['config.ts', 'output: io.stderr'],
];

function written(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString('utf8');
}

describe('every human line goes through the one escaping writer, so a command cannot forget', () => {
  it('no command writes to a process stream directly', () => {
    const found: string[] = [];
    for (const file of readdirSync(COMMANDS).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(COMMANDS, file), 'utf8');
      for (const match of text.matchAll(/.*\b(io\.std(out|err)|process\.std(out|err)|console\.)\b.*/g)) {
        const line = match[0].trim();
        if (!ALLOWED.some(([f, use]) => f === file && line.includes(use))) found.push(`${file}: ${line}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('a control character is printed once escaped: \\x1b, never raw and never \\\\x1b', () => {
    const out = new PassThrough();
    const text = written(out);
    writeHumanLine(out, 'a\x1b]0;PWNED\x07b\u009bc\u202ed\ne');
    expect(text()).toBe('a\\x1b]0;PWNED\\x07b\\x9bc\\u202ed\\ne\n');
  });

  it("the product's own colour is applied after escaping: its codes stay, the data's do not", () => {
    const out = new PassThrough();
    const text = written(out);
    writeHumanLine(out, 'head \x1b[8mhidden', (shown) => `\x1b[36m${shown}\x1b[39m`);
    expect(text()).toBe('\x1b[36mhead \\x1b[8mhidden\x1b[39m\n');
  });

  it('stdout lines of a command (svc version) and stderr lines both pass through it', async () => {
    const run = await runSvc(['version']);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    const usage = await runSvc(['-o', '\x1b]0;t\x07', 'version']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('\\x1b]0;t\\x07');
    expect(usage.stderr).not.toContain('\\\\x1b');
    expect(usage.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe('JSON output carries the same data with no raw C1 control or bidi mark', () => {
  it('parses back to the value given, for any string (full Unicode, controls, U+FFFE)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), (value) => {
        for (const json of [jsonForTerminal(value), jsonForTerminal(value, 2)]) {
          expect(JSON.parse(json)).toEqual(value);
          expect(json.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
        }
      }),
      { numRuns: 300, seed: 33 },
    );
  });

  it('writes a C1 CSI and a bidi override as \\u escapes', () => {
    expect(jsonForTerminal({ a: '\u009b2J\u202e\x1b' })).toBe('{"a":"\\u009b2J\\u202e\\u001b"}');
  });
});
