import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  engines: { node: string };
};

describe('the tarball ships the MIT LICENSE that package.json names', () => {
  it('npm pack --dry-run lists LICENSE', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path);
    expect(files).toContain('LICENSE');
  }, 60_000);

  it('LICENSE is the MIT text for svc-sdk contributors, 2026', () => {
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(pkg.license).toBe('MIT');
    expect(text).toMatch(/^MIT License\n\nCopyright \(c\) 2026 svc-sdk contributors\n/);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });
});

describe('every locked package installs without EBADENGINE on the oldest supported Node', () => {
  it(`each engines.node of package-lock.json admits the minimum of ${pkg.engines.node}`, () => {
    const oldest = semver.minVersion(pkg.engines.node)?.version as string;
    expect(oldest).toBe('20.19.0');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
