// The Worker the bundle-size row measures: it verifies the form's token through svc-sdk/botcheck
// (as examples/cloudflare-worker does) and answers with the decision.
import { BotCheckClient, verifyRequest } from 'svc-sdk/botcheck';

let client;

export default {
  async fetch(request, env) {
    client ??= new BotCheckClient({ baseUrl: env.SVC_BASE_URL, apiKey: env.SVC_API_KEY });
    const check = await verifyRequest(client, request);
    return Response.json(check.body, { status: check.status });
  },
};
