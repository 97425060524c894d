// The `svc-sdk/push` entry: for a backend that receives the audit log's push variant itself
// (Express, Fastify, a Worker): verify a push's Standard Webhooks signature or bearer secret,
// parse its body (one object, a JSON array or NDJSON, plain or gzip), answer a sender's
// verification challenge. Web APIs only.

export { type ParseAuditPushOptions, type PushBody, parseAuditPush } from './body.js';
export { pushChallengeAnswer } from './challenge.js';
export type { PushHeaders } from './headers.js';
export { type PushCheck, signAuditPush, type VerifyAuditPushInput, verifyAuditPush } from './signature.js';
