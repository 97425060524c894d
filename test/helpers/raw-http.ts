import { connect } from 'node:net';

/** A raw HTTP answer: status, lower-case headers and body text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` (request line and headers, `\r\n`-separated, without the final blank line) and
 * `body` over a fresh TCP connection to 127.0.0.1:`port`, exactly as written, with
 * `Connection: close` appended; resolves with the parsed answer once the server closes.
 */
export function rawHttp(port: number, head: string, body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const lines = text.slice(0, end === -1 ? text.length : end).split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status, headers, body: end === -1 ? '' : text.slice(end + 4) });
    });
    socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`, 'latin1');
  });
}
