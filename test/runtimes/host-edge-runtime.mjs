// Runs a conformance bundle (an IIFE that sets globalThis.__conformance) in Vercel's
// edge-runtime (its EdgeRuntime class) and prints the results as JSON on stdout.
import { readFileSync } from 'node:fs';
import { EdgeRuntime } from 'edge-runtime';

const runtime = new EdgeRuntime({ initialCode: readFileSync(process.argv[2], 'utf8') });
const results = await runtime.evaluate('globalThis.__conformance()');
process.stdout.write(`${JSON.stringify(results)}\n`);
