/** Types of pe-signature.js (a script run by plain Node), for its test. */
export function withoutSignature(exe: Buffer): Buffer;
