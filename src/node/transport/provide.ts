import { provideNodeTransports } from '../../core/transport/default.js';
import { createDefaultTransport } from './default.js';

/**
 * Makes Node's transports the default of every client this build makes (core/transport/default.ts):
 * undici for API calls, node:http for bulk page reads. Called by the Node build of the root entry
 * and by the CLI before they make a client; calling it again changes nothing.
 */
export function useNodeTransports(): void {
  provideNodeTransports(createDefaultTransport);
}
