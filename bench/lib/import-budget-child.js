// Imports one module with a load hook counting every module Node loads for it, and prints them as
// one JSON line: [{ url, format, bytes }]. bytes is the length of the source the loader handed to
// the engine (null for builtins). Run one process per entry, so no module is counted as cached.
// usage: node bench/lib/import-budget-child.js FILE_URL
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const target = process.argv[2];
if (!target) {
  console.error('usage: import-budget-child.js FILE_URL');
  process.exit(2);
}

/** @type {{ url: string, format: string | null, bytes: number | null, fromLoader: boolean }[]} */
const loaded = [];

/**
 * Records one load. A CommonJS module can come back without source (Node 20's loader leaves
 * reading it to require()): then its file is read once here, and its own require()s go unseen.
 * @param {{ url: string, format?: string, source?: unknown }} load
 */
function record({ url, format, source }) {
  let bytes = null;
  let fromLoader = true;
  if (typeof source === 'string') bytes = Buffer.byteLength(source);
  else if (source && typeof source === 'object' && 'byteLength' in source) bytes = Number(source.byteLength);
  else if (format !== 'builtin' && url.startsWith('file:')) {
    bytes = readFileSync(fileURLToPath(url)).byteLength;
    fromLoader = false;
  }
  loaded.push({ url, format: format ?? null, bytes, fromLoader });
}

// module.registerHooks (Node >= 22.15) runs in this thread and sees require() too; module.register
// (Node >= 20.6) runs the hooks on their own thread and sees the ES module graph.
const registerHooks = /** @type {any} */ (nodeModule).registerHooks;
if (typeof registerHooks === 'function') {
  registerHooks({
    load(url, context, nextLoad) {
      const result = nextLoad(url, context);
      record({ url, format: result.format, source: result.source });
      return result;
    },
  });
  await import(target);
} else {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (message) => {
    if (message !== 'flushed') record(message);
  });
  nodeModule.register(new URL('./import-load-hooks.js', import.meta.url), {
    data: { port: port2 },
    transferList: [port2],
  });
  await import(target);
  const flushed = new Promise((resolve) => port1.on('message', (m) => m === 'flushed' && resolve(m)));
  port1.postMessage('flush');
  await flushed;
  port1.close();
}
process.stdout.write(`${JSON.stringify(loaded)}\n`);
