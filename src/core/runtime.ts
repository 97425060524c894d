/** The JavaScript runtimes the client tells apart (for its default transport and error messages). */
export type RuntimeName = 'node' | 'bun' | 'deno' | 'workerd' | 'edge-runtime' | 'browser' | 'unknown';

/** The runtime this code runs in, with its version when it says. */
export interface Runtime {
  name: RuntimeName;
  version: string | undefined;
}

interface Globals {
  Bun?: { version?: string };
  Deno?: { version?: { deno?: string } };
  EdgeRuntime?: unknown;
  navigator?: { userAgent?: string };
  process?: { versions?: { node?: string } };
  window?: unknown;
}

let detected: Runtime | undefined;

/**
 * Which runtime this is, looked up once (like openai-node's shims). Bun and Deno also define
 * `process.versions.node`, so they are asked first; nothing here reads the environment (Deno
 * without `--allow-env` stays quiet).
 */
export function currentRuntime(): Runtime {
  if (detected) return detected;
  const g = globalThis as Globals;
  if (g.Bun !== undefined) detected = { name: 'bun', version: g.Bun.version };
  else if (g.Deno?.version?.deno !== undefined) detected = { name: 'deno', version: g.Deno.version.deno };
  else if (typeof g.EdgeRuntime === 'string') detected = { name: 'edge-runtime', version: undefined };
  else if (g.navigator?.userAgent === 'Cloudflare-Workers')
    detected = { name: 'workerd', version: undefined };
  else if (typeof g.process?.versions?.node === 'string') {
    detected = { name: 'node', version: g.process.versions.node };
  } else if (g.window !== undefined) detected = { name: 'browser', version: undefined };
  else detected = { name: 'unknown', version: undefined };
  return detected;
}

/** `name/version` of the runtime for the User-Agent header, e.g. `node/20.20.0`; `name` alone without a version. */
export function runtimeTag(runtime: Runtime = currentRuntime()): string {
  return runtime.version === undefined ? runtime.name : `${runtime.name}/${runtime.version}`;
}
