import { TransportError } from '../../core/errors/error-classes.js';
import { speaksTlsLine } from '../../core/transport/network-errors.js';
import { nodeBuiltin } from '../fs/builtin.js';

// Codes of a connection closed before any answer: what an https server does with plain HTTP.
const CLOSED_UNANSWERED = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

/**
 * For a plain http:// request that the server closed without an answer, whether the server
 * speaks TLS: a TLS handshake to the same host and port (no certificate checked, nothing sent
 * after it, at most 2 s). Then the failure is a {@link TransportError} saying to use https://
 * (not retried: every retry would fail alike); else `undefined`, and the failure stays as it was.
 * Only on this failure path, never on a request that got an answer.
 */
export async function httpToTlsPort(
  error: unknown,
  url: string,
  target: string,
): Promise<TransportError | undefined> {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !CLOSED_UNANSWERED.has(code) || !url.startsWith('http:')) return undefined;
  const { hostname, port } = new URL(url);
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const tls = nodeBuiltin('node:tls', 'http:// to a TLS port');
  const speaksTls = await new Promise<boolean>((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(port || 80),
      rejectUnauthorized: false,
      servername: undefined,
    });
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), 2000);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
  return speaksTls ? new TransportError(speaksTlsLine(target), { cause: error }) : undefined;
}
