// Runs a conformance bundle (an ES module Worker) in workerd through Miniflare, with
// nodejs_compat on when the second argument is "nodejs_compat", and prints the Worker's JSON
// answer on stdout.
import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';

const compat = process.argv[3] === 'nodejs_compat';
const mf = new Miniflare({
  modules: true,
  script: readFileSync(process.argv[2], 'utf8'),
  compatibilityDate: '2025-07-18',
  compatibilityFlags: compat ? ['nodejs_compat'] : [],
});
try {
  const response = await mf.dispatchFetch('http://worker.test/');
  process.stdout.write(`${await response.text()}\n`);
} finally {
  await mf.dispose();
}
