import { SvcError } from '../core/errors/svc-error.js';
import type { FetchLike } from '../core/transport/types.js';

/** Options of {@link registerWebhookEndpoint}. */
export interface RegisterWebhookEndpointOptions {
  /** The fetch to send the request with. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Cancels the request. Default: none. */
  signal?: AbortSignal;
}

/**
 * Registers `url` as a webhook endpoint of the demo project on a reference server, through its
 * loopback admin API (`POST /__admin/webhook-endpoints`). For local runs and tests; a real service
 * has no such API.
 *
 * @throws {SvcError} code `config` when the server cannot be reached or refuses the registration.
 * @example await registerWebhookEndpoint('http://127.0.0.1:4010', listener.url);
 */
export async function registerWebhookEndpoint(
  adminBaseUrl: string | URL,
  url: string,
  options: RegisterWebhookEndpointOptions = {},
): Promise<void> {
  const send = options.fetch ?? fetch;
  let endpoint: URL;
  try {
    endpoint = new URL('/__admin/webhook-endpoints', adminBaseUrl);
  } catch {
    throw new SvcError(`not a valid admin URL: ${String(adminBaseUrl)}`, 'config');
  }
  let res: Response;
  try {
    res = await send(endpoint.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      ...(options.signal && { signal: options.signal }),
    });
  } catch (error) {
    throw new SvcError(`cannot reach ${String(adminBaseUrl)} to register the listener`, 'config', {
      cause: error,
    });
  }
  if (!res.ok) {
    throw new SvcError(
      `registering the listener at ${String(adminBaseUrl)} failed with HTTP ${res.status}`,
      'config',
    );
  }
}
