import type { OutputFormat } from './output-format.js';

// The old tables, for the areas still defined in definitions.ts: they shrink as each area moves
// to command modules (command.ts), and the registry (registry.ts) is their one reader.

/** The `-o` formats of the commands of the areas not yet in command modules, by command path. */
export const LEGACY_OUTPUTS: Readonly<Record<string, readonly OutputFormat[]>> = {
  validate: ['table', 'json', 'ndjson', 'csv'],
  batch: ['ndjson', 'csv'],
  'results get': ['table', 'json', 'ndjson', 'csv'],
  'schedules create': ['table', 'json', 'ndjson', 'csv'],
  'schedules delete': ['table', 'json', 'ndjson', 'csv'],
  'webhooks listen': ['ndjson'],
  'audit list': ['table', 'json', 'ndjson', 'csv'],
  'audit export': ['ndjson'],
  'audit tail': ['ndjson'],
  'audit sync': [],
  'audit verify': ['json'],
  'audit gaps': ['json'],
  'audit gaps ack': [],
  'audit copy': [],
  'captcha result': ['table', 'json', 'ndjson', 'csv'],
  'captcha legacy': ['table', 'json', 'ndjson', 'csv'],
  // Without -o: the token alone on stdout, for $(svc captcha token).
  'captcha token': ['json', 'ndjson'],
  'token decode': ['table', 'json', 'ndjson', 'csv'],
};

/** The help examples of the commands of the areas not yet in command modules, by command path. */
export const LEGACY_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  validate: [
    'svc validate DE 136695976',
    'svc validate GB 136695976 --company-name "Example Ltd" -o json',
    'svc validate CH CHE-123.456.788 --schedule MONTHLY --idempotency-key o-42',
  ],
  'results get': [
    'svc results get 3f2b1c9e-0000-4000-8000-000000000001',
    'svc results get 3f2b1c9e-0000-4000-8000-000000000001 -o json',
  ],
  'schedules create': [
    'svc schedules create DE 136695976 --frequency MONTHLY',
    'svc schedules create FR 40303265045 --frequency YEARLY --disabled -o json',
  ],
  'schedules delete': [
    'svc schedules delete 7c1e0a52-0000-4000-8000-000000000002',
    'svc --profile staging schedules delete 7c1e0a52-0000-4000-8000-000000000002',
  ],
  'webhooks listen': ['svc webhooks listen --port 8787', 'svc webhooks listen --out events.ndjson --confirm'],
  batch: [
    'svc batch customers.csv --out results.csv --rejects rejects.csv',
    'svc batch customers.csv --out results.ndjson --resume    # after exit 75',
    'cat ids.csv | svc batch - --strategy single -o ndjson',
  ],
  'audit list': [
    'svc audit list --from 2026-01-01 --to 2026-01-31',
    'svc audit list --page-size 500 --cursor CURSOR -o json',
  ],
  'audit export': [
    'svc audit export --from 2026-01-01 --out events.ndjson',
    'svc audit export --from 2026-01-01 --out events.ndjson.gz --gzip',
    'svc audit export --out events.ndjson    # again after exit 75: resumes',
  ],
  'audit tail': ['svc audit tail', 'svc audit tail --interval 30 --since 2026-01-31T00:00:00Z'],
  'audit sync': [
    'svc audit sync --dir audit/ --gzip --sign-key sync.key',
    'svc audit sync --dir audit/ --backfill --sign-key sync.key  # repair gaps',
    'svc audit sync --projects projects.json --parallel 4',
  ],
  'audit verify': [
    'svc audit verify audit/ --public-key sync.pub',
    'svc audit verify audit/ --head "$HEAD" --max-age 36h  # HEAD: from the sync',
    'svc audit verify audit/ -o json',
  ],
  'audit gaps': ['svc audit gaps --dir audit/', 'svc audit gaps --dir audit/ -o json'],
  'audit gaps ack': [
    'svc audit gaps ack run3.late1 --reason "expired" --dir audit/',
    'svc audit gaps ack run5.conflicts --reason "checked by hand" --dir audit/',
  ],
  'audit copy': [
    'svc audit copy audit/ s3://audit-archive/nightly  # folder into a bucket',
    'svc audit copy s3://audit-archive/nightly restored/ --s3-region eu-west-1',
    'svc audit copy audit/ s3://locked/nightly --retain-days 400',
  ],
  'captcha result': [
    'svc captcha result "$TOKEN"',
    'svc captcha result "$VERIFICATION_ID" --policy threshold:0.3',
    'svc captcha result "$TOKEN" --policy multi-stage:0.4,0.8 --wait 3000',
  ],
  'captcha legacy': ['svc captcha legacy "$TOKEN"', 'svc captcha legacy "$ID" --on-failover reject -o json'],
  'captcha token': [
    'TOKEN=$(svc captcha token --base-url http://127.0.0.1:4010)',
    'svc captcha token --outcome challenge -o json --base-url "$URL"',
  ],
  'token decode': ['svc token decode "$TOKEN"', 'pbpaste | svc token decode -'],
};
