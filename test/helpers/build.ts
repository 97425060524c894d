import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const OUTPUTS = [
  'dist/cli/cli.js',
  'dist/cli/help.txt',
  'dist/index.js',
  'dist/index.cjs',
  'dist/web/index.js',
  'dist/index.d.ts',
  'dist/server/index.js',
  'dist/server.d.ts',
  'dist/openapi.json',
  'dist/assets/console.js',
  'dist/assets/widget.js',
];

function newestInput(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestInput(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  if (!OUTPUTS.every((f) => existsSync(join(ROOT, f)))) return false;
  const built = Math.min(...OUTPUTS.map((f) => statSync(join(ROOT, f)).mtimeMs));
  const inputs = Math.max(
    newestInput(join(ROOT, 'src')),
    statSync(join(ROOT, 'tsup.config.ts')).mtimeMs,
    statSync(join(ROOT, 'package.json')).mtimeMs,
  );
  return built > inputs;
}

function waitMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `npx tsup` unless dist/ is newer than every source. Test files run in parallel workers and
 * tsup cleans dist/ first, so builds are serialised through a lock folder.
 */
export function ensureBuilt(): void {
  if (isFresh()) return;
  const lock = join(tmpdir(), `svc-sdk-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  const giveUp = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than two minutes belongs to a build that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > giveUp) throw new Error(`build lock ${lock} held for too long`);
      waitMs(200);
    }
  }
  try {
    if (!isFresh()) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
