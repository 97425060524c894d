import { defineCommand } from '../command.js';
import { auditShipOptions } from '../options/audit-ship-options.js';

/** `svc audit ship ARCHIVE`: its handler (audit-ship.ts) loads when it runs. */
export const auditShipCommand = defineCommand({
  path: 'audit ship',
  summary:
    'send an archive to Elasticsearch, OpenSearch or a Splunk HEC, resumable, ending with a receipt (sent = created + already there + dead-lettered)',
  configure: auditShipOptions,
  outputs: ['json'],
  examples: [
    'svc audit ship audit/ --dest https://es.acme.com:9200 --kind elasticsearch',
    'svc audit ship s3://acme/a --dest https://hec.acme:8088 --kind splunk-hec',
    'svc audit ship audit/ --dest http://localhost:9200 --kind opensearch -o json',
  ],
  load: async () => (await import('../handlers/audit-ship.js')).auditShip,
});
