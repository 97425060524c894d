// Tests import the library's sources, not a build: give them Node's transports and digest as the
// Node build of `svc-sdk` does when it loads (src/node/root-entry.ts). The builds for other
// runtimes are tested as built (test/runtimes), where nothing provides them.
import { useNodePlatform } from '../../src/node/platform.js';

useNodePlatform();
