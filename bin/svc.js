#!/usr/bin/env node
// `svc --version` is answered here: loading the CLI (commander and its chunks) would double the time.
// So is a bare `svc --help` into a pipe or an 80-column terminal: dist/cli/help.txt is that help,
// rendered by the CLI at build time at commander's width for pipes, 80 (scripts/write-help.js). On
// a terminal of another width, or without the file, the CLI renders it.
const args = process.argv.slice(2);

// The two answers given here watch their write as the CLI does (src/cli/write-errors.ts): a
// closed pipe ends quietly, any other failed write (a full disk) is one line and exit 1.
function watchStdout() {
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(
      `svc: cannot write standard output: ${error.message.replace(/^[A-Z]+: /, '').split(',')[0]} (${error.code})\n`,
    );
    process.exit(1);
  });
}
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
  watchStdout();
  process.stdout.write(`${version}\n`);
} else {
  const help = await cachedHelp();
  if (help !== undefined) {
    watchStdout();
    process.stdout.write(help);
  } else {
    const { main } = await import('../dist/cli/cli.js');
    await main();
  }
}
