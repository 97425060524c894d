import { SvcError } from '../core/errors/svc-error.js';

/** Registering (or unregistering) a webhook endpoint with a reference server failed. Code `config`. */
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

/**
 * Removes `url` from the webhook endpoints of the reference server at `adminBase`
 * (`DELETE /__admin/webhook-endpoints?url=...`), the counterpart of
 * {@link registerWebhookEndpoint} for a listener that stops. A URL that is not registered (404)
 * is not an error. Throws {@link WebhookRegistrationError} when the server cannot be reached or
 * refuses otherwise.
 */
export async function unregisterWebhookEndpoint(
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
  endpoint.searchParams.set('url', url);
  let res: Response;
  try {
    res = await doFetch(endpoint, { method: 'DELETE', signal: options.signal });
  } catch (error) {
    throw new WebhookRegistrationError(`cannot reach ${String(adminBase)} to remove the listener`, {
      cause: error,
    });
  }
  await res.body?.cancel();
  if (!res.ok && res.status !== 404)
    throw new WebhookRegistrationError(
      `removing the listener at ${String(adminBase)} failed with HTTP ${res.status}`,
    );
}
