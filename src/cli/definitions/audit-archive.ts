import type { Command } from '@commander-js/extra-typings';
import type { Runner } from '../action.js';
import { Option } from '../commander.js';
import { fileModeOption, forceOption } from './output-options.js';

/** `svc audit sync|verify`: the incremental, verifiable archive. */
export function defineAuditArchiveCommands(audit: Command, run: Runner): void {
  audit
    .command('sync')
    .description(
      'everything new since the last run into DIR: one NDJSON file and one hash-chained manifest per run; resumable',
    )
    .addOption(
      new Option(
        '--dir <dir>',
        'archive directory (files, manifests, sync state, lock)',
      ).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--since <timestamp>',
        'start of the first run, ISO 8601 (default: all the API still keeps); ignored once DIR holds a run',
      ),
    )
    .addOption(
      new Option('--lag <duration>', "stop this long before the server's now, e.g. 300, 90s, 5m").default(
        '5m',
      ),
    )
    .addOption(
      new Option(
        '--overlap <duration>',
        're-read this long before the last run end for late events, e.g. 10m',
      ).default('10m'),
    )
    .addOption(new Option('--gzip', "write the run's file gzip-compressed (.ndjson.gz)"))
    .addOption(new Option('--sign-key <file>', 'Ed25519 private key (PEM) to sign each manifest'))
    .addOption(new Option('--page-size <n>', 'events per request, 1 to 1000 (default 1000)'))
    .addOption(forceOption("a run's file or manifest in DIR"))
    .addOption(fileModeOption())
    .action(run(async () => (await import('../commands/audit-sync.js')).auditSync));

  audit
    .command('verify')
    .description(
      're-hash the files of a sync archive, walk its manifest chain, check counts and gaps; exit 0 only when whole',
    )
    .argument('<dir>', 'archive directory written by `svc audit sync`')
    .addOption(
      new Option('--public-key <file>', 'Ed25519 public key (PEM): every manifest must be signed by it'),
    )
    .addOption(
      new Option(
        '--max-age <duration>',
        'fail when the newest run ends longer ago than this, e.g. 36h (catches lost or rolled-back runs)',
      ),
    )
    .addOption(
      new Option(
        '--head <sha256>',
        'fail unless the chain ends at the manifest with this sha256 (the head a sync printed)',
      ),
    )
    .action(run(async () => (await import('../commands/audit-verify.js')).auditVerify));
}
