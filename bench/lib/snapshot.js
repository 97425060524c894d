import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A private copy of the build (`dist/`, `bin/`, `package.json`; `node_modules` linked), so a
 * rebuild during a long run (the build empties `dist/` first) cannot pull files from under it.
 * @returns {{ root: string, remove: () => void }}
 */
export function snapshotBuild() {
  for (const needed of ['dist/index.js', 'dist/cli/cli.js', 'bin/svc.js']) {
    if (!existsSync(join(REPO, needed))) throw new Error(`${needed} is missing: run npm run build first`);
  }
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-build-'));
  for (const entry of ['dist', 'bin', 'package.json'])
    cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
