/**
 * A Cloudflare Worker that guards a form with the bot check: `svc-sdk/botcheck` needs Web APIs
 * only, so the Worker builds and runs with nodejs_compat off. The client lives at module scope,
 * created on the first request (secrets arrive with it), so a token replayed to the same isolate
 * is rejected without a request; another isolate's fetch is refused by the service (429), also a
 * reject.
 */
import { BotCheckClient, verifyRequest } from 'svc-sdk/botcheck';

/** The Worker's bindings: set them with `wrangler secret put` (or `[vars]` for the base URL). */
export interface Env {
  /** Base URL of the service, e.g. `https://api.example.com`. */
  SVC_BASE_URL: string;
  /** Project API key (`ak_...`) of the bot check. */
  SVC_API_KEY: string;
}

let client: BotCheckClient | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== 'POST') return new Response('POST a form here', { status: 405 });
    client ??= new BotCheckClient({ baseUrl: env.SVC_BASE_URL, apiKey: env.SVC_API_KEY, timeoutMs: 3000 });
    const check = await verifyRequest(client, request, {
      onDecision: ({ decision, reasons }) =>
        console.log(
          'bot check',
          decision,
          reasons.map((r) => r.code),
        ),
    });
    // 401 {decision:"challenge"} or 403 {decision:"reject"}: never why (the reasons are logged).
    if (check.decision !== 'accept') return Response.json(check.body, { status: check.status });
    const form = new URLSearchParams(check.bodyText ?? '');
    return Response.json({ decision: 'accept', message: form.get('message') });
  },
};
