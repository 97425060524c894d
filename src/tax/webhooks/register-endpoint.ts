import { SvcError } from '../../core/errors/error-classes.js';

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

/** The admin URL of the webhook endpoints at `adminBase`. */
function _endpointsUrl(adminBase: string | URL): URL {
  try {
    return new URL('/__admin/webhook-endpoints', adminBase);
  } catch {
    throw new WebhookRegistrationError(`not a valid admin URL: ${String(adminBase)}`);
  }
}

/** Sends one admin request; `verb` names the action in the error messages. */
async function _send(
  adminBase: string | URL,
  endpoint: URL,
  init: RequestInit,
  verb: 'register' | 'remove',
  options: RegisterWebhookEndpointOptions,
): Promise<Response> {
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(endpoint, { ...init, signal: options.signal });
  } catch (error) {
    throw new WebhookRegistrationError(`cannot reach ${String(adminBase)} to ${verb} the listener`, {
      cause: error,
    });
  }
  await res.body?.cancel();
  return res;
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
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  };
  const res = await _send(adminBase, _endpointsUrl(adminBase), init, 'register', options);
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
  const endpoint = _endpointsUrl(adminBase);
  endpoint.searchParams.set('url', url);
  // A dev server takes changes only as JSON (a web page cannot send that cross-origin).
  const init = { method: 'DELETE', headers: { 'content-type': 'application/json' } };
  const res = await _send(adminBase, endpoint, init, 'remove', options);
  if (!res.ok && res.status !== 404)
    throw new WebhookRegistrationError(
      `removing the listener at ${String(adminBase)} failed with HTTP ${res.status}`,
    );
}
