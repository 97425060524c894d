import { SvcError } from '../core/errors/svc-error.js';

/** Registering a webhook endpoint with a reference server failed. Code `config`. */
export class WebhookRegistrationError extends SvcError {
  override name = 'WebhookRegistrationError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'config', options);
  }
}

/** Options of {@link registerWebhookEndpoint}. */
export interface RegisterWebhookEndpointOptions {
  /** Stops the request. Default: none. */
  signal?: AbortSignal;
  /** The fetch to use. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * Registers `url` as a webhook endpoint of the reference server at `adminBase` (its admin API:
 * `POST /__admin/webhook-endpoints`), so its webhook deliveries reach a local listener. Only the
 * reference server has this endpoint; for the real service, register the URL in the project's
 * settings. Throws {@link WebhookRegistrationError} when the server cannot be reached or refuses.
 */
export async function registerWebhookEndpoint(
  adminBase: string | URL,
  url: string,
  options: RegisterWebhookEndpointOptions = {},
): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  let endpoint: URL;
  try {
    endpoint = new URL('/__admin/webhook-endpoints', adminBase);
  } catch {
    throw new WebhookRegistrationError(`not a valid admin URL: ${String(adminBase)}`);
  }
  let res: Response;
  try {
    res = await doFetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      signal: options.signal,
    });
  } catch (error) {
    throw new WebhookRegistrationError(`cannot reach ${String(adminBase)} to register the listener`, {
      cause: error,
    });
  }
  await res.body?.cancel();
  if (!res.ok)
    throw new WebhookRegistrationError(
      `registering the listener at ${String(adminBase)} failed with HTTP ${res.status}`,
    );
}
