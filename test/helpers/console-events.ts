import type { RequestEvent } from '../../src/server/events/types.js';

/** A console `request` event for `path`, as the app publishes one (a GET, no key). */
export function requestEvent(path: string): RequestEvent {
  return {
    method: 'GET',
    path,
    status: 200,
    latencyMs: 1,
    requestId: 'r',
    key: undefined,
    principal: undefined,
  };
}
