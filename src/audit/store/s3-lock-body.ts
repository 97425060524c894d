// The body of a bucket archive's lock object: who holds it, and until when.

/** What the lock object holds. */
export interface LockBody {
  token: string;
  host: string;
  pid: number;
  /** ISO time after which another run may take the lock over. */
  expires: string;
}

/** The lock object's body, or undefined when it is not one (a hand-made or damaged object). */
export function parseLock(text: string | undefined): LockBody | undefined {
  try {
    const body = JSON.parse(text ?? '') as Partial<LockBody>;
    return typeof body.token === 'string' &&
      typeof body.host === 'string' &&
      typeof body.pid === 'number' &&
      typeof body.expires === 'string' &&
      !Number.isNaN(Date.parse(body.expires))
      ? (body as LockBody)
      : undefined;
  } catch {
    return undefined;
  }
}
