// Load hooks for bench/lib/import-budget-child.js on Node versions without module.registerHooks
// (Node 20): module.register() runs them on a thread of their own, so each loaded module is posted
// back over the port handed over in `initialize`. A 'flush' message is answered once every earlier
// report is on its way (messages on one port keep their order).
/** @type {import('node:worker_threads').MessagePort | undefined} */
let port;

/** @param {{ port: import('node:worker_threads').MessagePort }} data */
export function initialize(data) {
  port = data.port;
  port.on('message', (message) => {
    if (message === 'flush') port?.postMessage('flushed');
  });
  port.unref();
}

/**
 * Passes every load on unchanged and reports its URL, format and source.
 * @param {string} url
 * @param {object} context
 * @param {(url: string, context: object) => Promise<{ format?: string, source?: unknown }>} nextLoad
 */
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  port?.postMessage({ url, format: result.format, source: result.source ?? null });
  return result;
}
