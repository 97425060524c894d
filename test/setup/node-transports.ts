// Tests import the library's sources, not a build: give their clients Node's transports as the
// Node build of `svc-sdk` does when it loads (src/node/root-entry.ts). The builds for other
// runtimes are tested as built (test/runtimes), where nothing provides them.
import { useNodeTransports } from '../../src/node/transport/provide.js';

useNodeTransports();
