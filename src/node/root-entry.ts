// The `svc-sdk` entry as Node loads it (package.json `exports` ".", conditions import and
// require): the Web-safe root (src/index.ts, which the other runtimes' build is) with Node's
// transports as the default of its clients. Its types are src/index.ts's.
import { useNodePlatform } from './platform.js';

useNodePlatform();

export * from '../index.js';
