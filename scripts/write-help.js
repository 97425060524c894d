#!/usr/bin/env node
// Writes dist/cli/help.txt: `svc --help` as the built CLI prints it to a pipe, rendered by
// commander from the command definitions at its width for pipes, 80 columns. bin/svc.js prints it
// for a bare `svc --help` into a pipe or an 80-column terminal (another width wraps differently),
// so that answer needs no commander and no command module; test/cli/help-cache.test.ts checks it
// against the live help.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'dist', 'cli', 'help.txt');
// The live help, never an older copy of itself.
rmSync(file, { force: true });
const help = execFileSync(process.execPath, [join(root, 'bin', 'svc.js'), '--help'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
});
writeFileSync(file, help);
