import { SvcError } from './svc-error.js';

/** Why a verification token could not be decoded. */
export type TokenDecodeReason =
  | 'EMPTY'
  | 'TOO_LONG'
  | 'NOT_BASE64'
  | 'NOT_JSON'
  | 'NOT_OBJECT'
  | 'MISSING_ID'
  | 'BAD_ID';

/** A verification token is not Base64 JSON with a valid `verificationId`. Nothing was sent. */
export class TokenDecodeError extends SvcError {
  override name = 'TokenDecodeError';
  readonly reason: TokenDecodeReason;

  constructor(reason: TokenDecodeReason, message: string) {
    super(message, `token_${reason.toLowerCase()}`);
    this.reason = reason;
  }
}
