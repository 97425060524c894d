// Runs one scenario in a process of its own (so heaps, JIT state and sockets of one scenario never
// touch another) and writes its result as JSON to the file named on the command line.
// usage: node bench/lib/scenario-child.js NAME RESULT_FILE [--quick]
import { writeFileSync } from 'node:fs';

const [name, resultFile, ...flags] = process.argv.slice(2);
if (!name || !resultFile) {
  console.error('usage: scenario-child.js NAME RESULT_FILE [--quick]');
  process.exit(2);
}
const scenario = await import(new URL(`../scenarios/${name}.js`, import.meta.url).href);
const log = (line) => process.stderr.write(`${line}\n`);
try {
  const result = await scenario.run({ quick: flags.includes('--quick'), log });
  writeFileSync(resultFile, JSON.stringify(result));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  writeFileSync(resultFile, JSON.stringify({ error: message }));
  log(`  ${name} failed: ${message}`);
  process.exitCode = 1;
}
