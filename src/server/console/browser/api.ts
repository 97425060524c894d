/** A message line the console shows for the last action (an `aria-live` region). */
let statusLine: HTMLElement | undefined;

/** Where action results are announced. */
export function setStatusLine(element: HTMLElement): void {
  statusLine = element;
}

/** Shows a one-line message about the last action. */
export function announce(text: string, kind: 'ok' | 'error' = 'ok'): void {
  if (!statusLine) return;
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
}

/**
 * Sends a same-origin JSON request, as the dev server's mutation rules want (`Content-Type:
 * application/json`, the server's own `Origin`); announces failures and returns the parsed body.
 */
export async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  try {
    const res = await fetch(path, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      credentials: 'same-origin',
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // Keep the text.
    }
    if (!res.ok) {
      const detail = (parsed as { detail?: unknown } | undefined)?.detail;
      announce(`${method} ${path}: ${res.status} ${typeof detail === 'string' ? detail : ''}`, 'error');
      return undefined;
    }
    return parsed;
  } catch (error) {
    announce(`${method} ${path}: ${(error as Error).message}`, 'error');
    return undefined;
  }
}

/** POST with JSON; the parsed body (`{}` when empty), `undefined` when it failed (already announced). */
export const post = (path: string, body: unknown = {}) => send('POST', path, body);
