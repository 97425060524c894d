#!/usr/bin/env node
// Writes dist/openapi.json (shipped as svc-sdk/openapi.json) from the built library.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildOpenApiDocument } = await import(join(root, 'dist', 'index.js'));
writeFileSync(join(root, 'dist', 'openapi.json'), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
