#!/usr/bin/env node
// `svc --version` is answered here: loading the CLI (commander and its chunks) would double the time.
// So is a bare `svc --help` into a pipe or an 80-column terminal: dist/cli/help.txt is that help,
// rendered by the CLI at build time at commander's width for pipes, 80 (scripts/write-help.js). On
// a terminal of another width, or without the file, the CLI renders it.
const args = process.argv.slice(2);
const bare = (...flags) => args.length === 1 && flags.includes(args[0]);

async function cachedHelp() {
  if (!bare('--help', '-h') || (process.stdout.isTTY && process.stdout.columns !== 80)) return undefined;
  const { readFileSync } = await import('node:fs');
  try {
    return readFileSync(new URL('../dist/cli/help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

if (bare('--version', '-V')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const help = await cachedHelp();
  if (help !== undefined) {
    // A closed pipe (`svc --help | head -1`) ends quietly, as it does in the CLI.
    process.stdout.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(0);
    });
    process.stdout.write(help);
  } else {
    const { main } = await import('../dist/cli/cli.js');
    await main();
  }
}
