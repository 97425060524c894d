import { startBulkStandIn } from './bulk-standin.js';

// The `_bulk` stand-in (bulk-standin.ts) in a process of its own, for the bench: its CPU and
// memory never mix with the ship being measured. usage: node --import tsx bulk-standin-process.ts
// First stdout line: `bulk stand-in listening: URL`. Keeps ids only (no sources); `GET
// /<index>/_count` says how many an index holds. Stops on SIGTERM or SIGINT.
const standIn = await startBulkStandIn({ keepSources: false });
process.stdout.write(`bulk stand-in listening: ${standIn.url}\n`);
const stop = () => {
  standIn.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
