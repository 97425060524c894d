import { MAX_MANIFEST_BYTES } from '../audit-archive/gaps.js';
import { parseManifest } from '../audit-archive/manifest.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestRun } from '../audit-store/layout.js';

/**
 * Of `names`, those a run may replace: the ones that exist and no manifest of the archive lists
 * (an interrupted run's own objects, or with `force` another tool's). Write-once holds whatever
 * the state says: an object a manifest lists is never among them, and when any manifest cannot
 * be read none is (nothing is replaced on a guess). The manifests are read only when one of
 * `names` exists.
 */
export async function replaceableOf(store: ArchiveStore, names: readonly string[]): Promise<Set<string>> {
  const objects = (await store.list()).map((object) => object.name);
  const there = names.filter((name) => objects.includes(name));
  const replaceable = new Set(there);
  if (there.length === 0) return replaceable;
  for (const name of objects) {
    if (manifestRun(name) === undefined) continue;
    const bytes = await store.read(name, MAX_MANIFEST_BYTES).catch(() => undefined);
    const parsed = bytes ? parseManifest(bytes.toString('utf8')) : undefined;
    if (!parsed?.ok) return new Set();
    for (const file of parsed.manifest.files) replaceable.delete(file.name);
    if (parsed.manifest.conflicts) replaceable.delete(parsed.manifest.conflicts.name);
  }
  return replaceable;
}
