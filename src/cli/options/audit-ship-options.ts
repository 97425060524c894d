import { type Command, Option } from '@commander-js/extra-typings';
import { SHIP_KINDS } from '../../node/audit-ship/options.js';
import { choiceOption } from '../choices.js';
import type { OptionsOf } from '../command.js';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';
import { eventFormatOptions } from './event-format-options.js';
import { retryForOption } from './retry-for-option.js';

/** The argument and options of `svc audit ship ARCHIVE` (commands/audit-ship.ts registers it). */
export const auditShipOptions = (command: Command) =>
  eventFormatOptions(
    command
      .argument('<archive>', 'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX')
      .addOption(
        new Option(
          '--dest <url>',
          'the destination: the cluster URL (https://es.example.com:9200) or the HEC host (https://splunk.example.com:8088); credentials from SVC_SHIP_API_KEY, SVC_SHIP_USERNAME/SVC_SHIP_PASSWORD or SVC_SHIP_TOKEN',
        ).makeOptionMandatory(),
      )
      .addOption(choiceOption('--kind <kind>', 'what the destination is', SHIP_KINDS).makeOptionMandatory()),
    'ecs (default for elasticsearch and opensearch), ocsf, or raw: each event as received (default for splunk-hec); see docs/audit-imports.md',
  )
    .addOption(
      new Option(
        '--index <name>',
        "index or data stream (default svc-audit-events); for splunk-hec the Splunk index (default: the token's)",
      ),
    )
    .addOption(
      new Option('--sourcetype <name>', 'splunk-hec: the sourcetype of every event (default svc:audit)'),
    )
    .addOption(
      new Option('--from <timestamp>', 'start of the range sent, ISO 8601 (default: the archive start)'),
    )
    .addOption(
      new Option(
        '--to <timestamp>',
        "end of the range sent, ISO 8601 (default: the archive's head, so a later run also sends what later syncs added)",
      ),
    )
    .addOption(new Option('--batch-size <n>', 'documents per request (default 1000)'))
    .addOption(
      new Option(
        '--max-body-bytes <n>',
        'largest request body (default 5242880; splunk-hec 1000000); a body answered 413 is split',
      ),
    )
    .addOption(
      new Option(
        '--dead-letter <file>',
        'where documents refused for good go, one JSON line each with the reason (default: svc-ship-ID.dead-letter.ndjson here, or the file the checkpoint names)',
      ),
    )
    .addOption(new Option('--receipt <file>', 'also write the receipt as JSON to this file'))
    .addOption(
      new Option(
        '--ack',
        'splunk-hec: indexer acknowledgement (the token must have it on); events not acknowledged are sent again',
      ),
    )
    .addOption(
      new Option('--restart', "forget this destination's checkpoint and dead-letter file and start over"),
    )
    .addOption(retryForOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit ship`, as its handler takes them. */
export type AuditShipOptions = OptionsOf<typeof auditShipOptions>;
