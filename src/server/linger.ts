import type { ServerResponse } from 'node:http';

/** Body bytes read and thrown away after a 413 before the connection is closed anyway. 4 MiB. */
export const LINGER_BYTES = 4 * 1024 * 1024;
/** Longest wait for the sender to stop after a 413. 2 s. */
export const LINGER_MS = 2000;

/**
 * Ends a response that closes the connection while the client may still be sending its body (a
 * 413): the answer is written first, then what the client goes on sending is read and thrown away
 * (at most {@link LINGER_BYTES}, {@link LINGER_MS}) before the connection closes. Closing at once
 * with unread bytes makes the kernel reset the connection, and a reset that reaches the client
 * before it read the answer discards it: a client uploading a large body would see a reset
 * instead of the 413. A client that stops sending on the answer (as RFC 9110 asks) ends it sooner.
 */
export function endLingering(res: ServerResponse, text: string): void {
  res.write(text);
  const req = res.req;
  let read = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', end);
    req.off('close', end);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) end();
  };
  const timer = setTimeout(end, LINGER_MS);
  timer.unref();
  req.on('data', onData);
  req.on('end', end);
  req.on('close', end);
  req.resume();
}
