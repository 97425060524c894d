export { buildAdminOpenApiDocument } from './admin-openapi.js';
export type { ReferenceServerOptions } from './app.js';
export type { Clock } from './clock.js';
export { createClock } from './clock.js';
export type { FaultConfig, FaultKind } from './faults.js';
export { DEMO, TEST_KEY } from './fixtures.js';
export { createReferenceServer, type ReferenceServer } from './reference-server.js';
