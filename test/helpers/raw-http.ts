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
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'))));
    socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`, 'latin1');
  });
}

/** What {@link rawStream} got back: the answer, and how many body bytes the socket accepted. */
export interface StreamedAnswer extends RawAnswer {
  /** Body bytes handed to the socket before the server closed it or the body ended. */
  written: number;
  /** The socket's error code, if it ended with one (EPIPE, ECONNRESET once the server closed). */
  error?: string;
}

function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, end === -1 ? text.length : end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: end === -1 ? '' : text.slice(end + 4) };
}

/**
 * Sends `head` (as {@link rawHttp}, plus `Connection: close`) and then a body of `total` bytes:
 * `prefix` then spaces, in 16 KiB pieces, chunked (`Transfer-Encoding: chunked` is added) unless
 * `chunked` is false (then the head must frame the body itself). Waits for the socket to drain
 * between pieces and stops writing once the server closes, so a server that stops reading
 * shows as `written` far below `total`. Resolves once the connection is closed.
 */
export function rawStream(
  port: number,
  head: string,
  total: number,
  options: { prefix?: string; chunked?: boolean } = {},
): Promise<StreamedAnswer> {
  const chunked = options.chunked ?? true;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let written = 0;
    socket.on('data', (chunk) => chunks.push(chunk));
    let error: string | undefined;
    // EPIPE or ECONNRESET once the server stops reading: expected, kept for the caller to check.
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code;
    });
    socket.on('close', () =>
      resolve({
        ...parseAnswer(Buffer.concat(chunks).toString('latin1')),
        written,
        ...(error !== undefined && { error }),
      }),
    );
    const piece = (bytes: Buffer) =>
      chunked ? [`${bytes.length.toString(16)}\r\n`, bytes, '\r\n'] : [bytes];
    const send = async () => {
      socket.write(`${head}${chunked ? '\r\nTransfer-Encoding: chunked' : ''}\r\nConnection: close\r\n\r\n`);
      let body = Buffer.from(options.prefix ?? '', 'latin1');
      while (written < total && !socket.destroyed) {
        const size = Math.min(16_384, total - written);
        const bytes = Buffer.alloc(size, 0x20);
        body.copy(bytes, 0, 0, Math.min(body.length, size));
        body = body.subarray(Math.min(body.length, size));
        let drained = true;
        for (const part of piece(bytes)) drained = socket.write(part) && drained;
        written += size;
        if (!drained) await new Promise((resume) => socket.once('drain', resume).once('close', resume));
      }
      if (!socket.destroyed) socket.end(chunked ? '0\r\n\r\n' : '');
    };
    void send();
  });
}
