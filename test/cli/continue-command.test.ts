import { Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { addGlobalOptions } from '../../src/cli/global-options.js';
import { continueCommand, shellWord } from '../../src/cli/handlers/continue-line.js';

function parsed(args: string[]) {
  const program = addGlobalOptions(new Command('svc').exitOverride());
  const batch = program
    .command('batch')
    .argument('<file>')
    .option('--out <file>')
    .option('--bom')
    .option('--no-bom')
    .addOption(new Option('--sign-key <file>'))
    .addOption(new Option('--api-key <key>'))
    .option('--force')
    .option('--chunk-size <n>', 'rows', '100')
    .action(() => {});
  program.parse(args, { from: 'user' });
  return batch;
}

describe('the continuing command is the command as typed, quoted for a shell, never a secret', () => {
  it('arguments and typed options, quoted; defaults and key options left out', () => {
    const batch = parsed([
      '--max-retries',
      '0',
      'batch',
      "Kunden 'neu'.csv",
      '--out',
      'out.ndjson',
      '--no-bom',
      '--sign-key',
      'k.pem',
      '--api-key',
      'ak_live_secret',
      '--force',
    ]);
    expect(continueCommand(batch, { drop: ['--force'], add: ['--resume'] })).toBe(
      `svc batch 'Kunden '\\''neu'\\''.csv' --out out.ndjson --no-bom --sign-key k.pem --resume`,
    );
  });

  it('global options typed go before the command, so it reaches the same service; credentials never', () => {
    const run = parsed([
      '--base-url',
      'https://api.example.com',
      '--api-key',
      'ak_live_secret',
      '--proxy',
      'http://user:hunter2@proxy:3128',
      'batch',
      'a.csv',
    ]);
    expect(continueCommand(run)).toBe('svc --base-url https://api.example.com batch a.csv');
    const bounds = parsed(['--timeout', '9000', '--max-retries', '0', 'batch', 'a.csv']);
    expect(continueCommand(bounds)).toBe('svc --timeout 9000 batch a.csv');
    const plainProxy = parsed(['--proxy', 'http://proxy:3128', 'batch', 'a.csv']);
    expect(continueCommand(plainProxy)).toBe('svc --proxy http://proxy:3128 batch a.csv');
  });

  it('--bom given says --bom; a value from its default is not repeated', () => {
    expect(continueCommand(parsed(['batch', 'a.csv', '--bom', '--chunk-size', '200']))).toBe(
      'svc batch a.csv --bom --chunk-size 200',
    );
  });

  it('shellWord leaves plain words bare', () => {
    expect(shellWord('/tmp/x-1.ndjson')).toBe('/tmp/x-1.ndjson');
    expect(shellWord('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(shellWord('a;b')).toBe(`'a;b'`);
  });
});
