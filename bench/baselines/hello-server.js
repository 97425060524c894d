// Baseline server: a plain node:http hello-world answering JSON, the ceiling of any Node HTTP server
// on this machine. Prints `hello server listening on http://HOST:PORT` first, like `svc serve`.
import { createServer } from 'node:http';

const body = Buffer.from('{"hello":"world"}');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`hello server listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
