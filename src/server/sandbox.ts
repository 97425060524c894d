import { createReferenceServer, type ReferenceServer } from './reference-server.js';

/** The reference server of `--sandbox`: loopback, free port, demo data. */
export async function createSandboxServer(): Promise<ReferenceServer> {
  const server = await createReferenceServer({ host: '127.0.0.1', port: 0 });
  server.admin.seedDemoData();
  return server;
}
