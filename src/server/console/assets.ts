import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpProblem } from '../problem.js';

/** Browser files the build writes to `dist/assets/`, with their content types. */
export const ASSETS = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'widget.js': 'text/javascript; charset=utf-8',
} as const;
export type AssetName = keyof typeof ASSETS;

/** Where `dist/assets` is seen from this module: bundled in dist/, in dist/cli/ or dist/server/, or in src/server/console/. */
function candidates(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, 'assets'), join(here, '..', 'assets'), join(here, '..', '..', '..', 'dist', 'assets')];
}

/**
 * The asset carried inside a single executable (`npm run build:exe` puts dist/assets into the SEA
 * blob: beside `svc.exe` there is no dist/), or undefined when this process is a plain Node.
 */
async function embedded(name: AssetName): Promise<Buffer | undefined> {
  // node:sea exists from Node 20.12 (engines: >= 20.19), not in Bun or Deno, which run the
  // reference server from files; loaded on the first request, like the files.
  const sea = await import('node:sea').catch(() => undefined);
  return sea?.isSea() ? Buffer.from(sea.getAsset(name)) : undefined;
}

/** Reads an asset (fresh each time, so a rebuild shows without a restart); 503 when not built. */
export async function readAsset(name: AssetName): Promise<Buffer> {
  const carried = await embedded(name);
  if (carried) return carried;
  for (const dir of candidates()) {
    try {
      return await readFile(join(dir, name));
    } catch {
      // Next candidate.
    }
  }
  throw new HttpProblem(503, `The console assets are not built (${name}); run npm run build`);
}

/** Writes an asset with its type; never cached, never sniffed. */
export async function sendAsset(res: ServerResponse, name: AssetName, headers: Record<string, string> = {}) {
  const body = await readAsset(name);
  res.writeHead(200, {
    ...headers,
    'content-type': ASSETS[name],
    'content-length': body.length,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
