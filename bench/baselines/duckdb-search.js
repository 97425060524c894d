#!/usr/bin/env node
// The search baseline: DuckDB's read_ndjson over the same data files, counting the events of the
// same query (actor.type:API_KEY), as docs/audit-reports.md documents it.
// usage: node bench/baselines/duckdb-search.js DIR; prints {"matched": N} as its last line.
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const connection = await db.connect();
const reader = await connection.runAndReadAll(
  `SELECT count(*) AS n FROM read_ndjson('${dir.replaceAll("'", "''")}/audit-*.ndjson*') WHERE actor.type = 'API_KEY'`,
);
const [[n]] = reader.getRowsJson();
console.log(JSON.stringify({ matched: Number(n) }));
connection.closeSync();
