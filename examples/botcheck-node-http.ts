/**
 * Bot check on a plain `node:http` form endpoint: read the body, take `svc-verification-token`,
 * verify it, answer by decision. No framework needed.
 *
 * In your app, import from 'svc-sdk' instead of '../src/index.js'.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type EvaluationPolicy, extractToken, SvcClient } from '../src/index.js';

/** Options of {@link createContactFormHandler}. */
export interface ContactFormOptions {
  client: SvcClient;
  /** Default: threshold 0.5. */
  policy?: EvaluationPolicy;
  /** Accept when the bot-check service is down. Default false (fail closed). */
  failOpen?: boolean;
  /** Largest body read, bytes. Default 64 KiB. */
  maxBodyBytes?: number;
}

const STATUS = { accept: 200, challenge: 401, reject: 403 } as const;

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * A request listener for `POST` form submissions (urlencoded or JSON): 200 when the bot check
 * accepts, 401 when it asks for an extra check, 403 when it rejects.
 */
export function createContactFormHandler(options: ContactFormOptions): RequestListener {
  const { client, policy, failOpen = false, maxBodyBytes = 64 * 1024 } = options;
  return (req, res) => {
    void (async () => {
      if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
      const text = await readBody(req, maxBodyBytes);
      if (text === undefined) return send(res, 413, { error: 'body too large' });
      // extractToken reads urlencoded and JSON text alike.
      const outcome = await client.botCheck.verify(extractToken(text), {
        ...(policy && { policy }),
        failOpen,
      });
      // Log the reasons for support; never show them to a possible bot.
      console.info(`bot check ${outcome.decision}: ${outcome.reasons.map((r) => r.code).join(', ')}`);
      send(res, STATUS[outcome.decision], { decision: outcome.decision });
    })().catch(() => send(res, 500, { error: 'internal error' }));
  };
}

// `SVC_BASE_URL=... SVC_API_KEY=... npx tsx examples/botcheck-node-http.ts`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = SvcClient.fromEnv();
  const port = Number(process.env.PORT ?? 3000);
  createServer(createContactFormHandler({ client })).listen(port, '127.0.0.1', () => {
    console.info(`contact form on http://127.0.0.1:${port}/ (POST svc-verification-token)`);
  });
}
