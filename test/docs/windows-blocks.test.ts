import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';
import { nodeSvc, useWinePrefix, wineMissing, winPath } from '../helpers/windows.js';
import { allBlocks, cmdScript, type DocBlock } from './doc-blocks.js';

// The `cmd` blocks of the docs run as a reader on Windows runs them: in cmd (Wine's), with `svc`
// the built CLI under Windows Node, in a folder where `examples\` is the project's. A reference
// server of this process stands in for the service (SVC_BASE_URL, SVC_API_KEY set, as in
// examples.test.ts). PowerShell blocks are not run: Wine has no PowerShell.

const blocks = allBlocks(ROOT).filter((block) => block.lang === 'cmd');
const server = useReferenceServer();
const wine = useWinePrefix();
beforeAll(() => ensureBuilt(), 180_000);

function svcCommand(): string {
  const command = nodeSvc();
  return [winPath(command.program), ...command.prefix].map((part) => `"${part}"`).join(' ');
}

function workspace(block: DocBlock): string {
  const dir = join(wine().scratch, block.file.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  try {
    symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  } catch {
    // linked by an earlier block of this guide
  }
  return dir;
}

describe.skipIf(wineMissing || blocks.length === 0)(
  'every cmd example of the docs runs in cmd under Windows Node',
  () => {
    for (const block of blocks) {
      it(`${block.file}:${block.line} ${block.body.split('\n')[0]?.trim().slice(0, 60)}`, async () => {
        const dir = workspace(block);
        const script = join(dir, `block-${block.line}.cmd`);
        writeFileSync(script, cmdScript(block.body, svcCommand()));
        const run = await wine().exec('cmd', ['/c', winPath(script)], {
          cwd: dir,
          env: { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' },
        });
        expect(run.code, `${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`).toBe(0);
      }, 120_000);
    }
  },
);
