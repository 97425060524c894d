import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpProblem } from './problem.js';

/** Largest request body the server reads. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads and parses a JSON body; 400 for bad JSON, 413 past the limit, undefined when empty. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpProblem(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpProblem(400, 'Request body is not valid JSON');
  }
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes an empty response. */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}
