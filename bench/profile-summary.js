#!/usr/bin/env node
// Summarizes a V8 CPU profile (`node --cpu-prof`): self time by function and by file, and the
// total (inclusive) time of the heaviest functions of the project's own code.
// usage: node bench/profile-summary.js FILE.cpuprofile [--top N]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Shortens a script URL to something readable: node_modules/<pkg>/..., dist/..., node:... */
export function shortUrl(url) {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) return url.slice(nm + 'node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  if (dist !== -1) return url.slice(dist + 1);
  const bench = url.lastIndexOf('/bench/');
  if (bench !== -1) return url.slice(bench + 1);
  return url.replace(/^file:\/\//, '');
}

/**
 * Self and inclusive time per function and self time per file, in ms.
 * @param {{ nodes: any[], samples: number[], timeDeltas: number[] }} profile
 */
export function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const key = (n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const selfByFn = new Map();
  const selfByFile = new Map();
  const totalByFn = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    totalUs += us;
    const node = byId.get(id);
    selfByFn.set(key(node), (selfByFn.get(key(node)) ?? 0) + us);
    const file = shortUrl(node.callFrame.url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
    // Inclusive: count each function once per sample stack.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at));
      if (seen.has(k)) continue;
      seen.add(k);
      totalByFn.set(k, (totalByFn.get(k) ?? 0) + us);
    }
  }
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000]);
  return {
    totalMs: totalUs / 1000,
    selfByFn: sorted(selfByFn),
    selfByFile: sorted(selfByFile),
    totalByFn: sorted(totalByFn),
  };
}

function main(argv) {
  const file = argv[0];
  if (!file) {
    console.error('usage: node bench/profile-summary.js FILE.cpuprofile [--top N]');
    return 2;
  }
  const at = argv.indexOf('--top');
  const top = at === -1 ? 15 : Number(argv[at + 1]);
  const s = summarize(JSON.parse(readFileSync(file, 'utf8')));
  const pct = (ms) => `${((ms * 100) / s.totalMs).toFixed(1).padStart(5)}%`;
  const print = (title, rows) => {
    console.log(`\n${title}`);
    for (const [k, ms] of rows.slice(0, top))
      console.log(`  ${pct(ms)} ${ms.toFixed(0).padStart(7)} ms  ${k}`);
  };
  console.log(`profile: ${s.totalMs.toFixed(0)} ms sampled`);
  print('self time by file', s.selfByFile);
  print('self time by function', s.selfByFn);
  print(
    'total time, project code (dist/)',
    s.totalByFn.filter(([k]) => k.includes(' dist/')),
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
