import { startS3Server } from './s3-server.js';

// The loopback S3 server (s3-server.ts) in a process of its own, for the bench: its CPU and memory
// never mix with the CLI run being measured. usage: node --import tsx s3-server-process.ts BUCKET...
// First stdout line: `s3 test server listening: {"AWS_ENDPOINT_URL_S3":...}` (the AWS_* settings
// a CLI needs, as JSON). Stops on SIGTERM or SIGINT, removing its files.
const server = await startS3Server();
for (const bucket of process.argv.slice(2)) await server.createBucket(bucket);
process.stdout.write(`s3 test server listening: ${JSON.stringify(server.env)}\n`);
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
