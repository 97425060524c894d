import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import {
  requireRetentionOption,
  s3EndpointOption,
  s3PathStyleOption,
  s3RegionOption,
} from './bucket-options.js';

/** The argument and options of `svc audit verify DIR` (commands/audit-verify.ts registers it). */
export const auditVerifyOptions = (command: Command) =>
  command
    .argument('<dir>', 'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX')
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
    .addOption(requireRetentionOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit verify`, as its handler takes them. */
export type AuditVerifyOptions = OptionsOf<typeof auditVerifyOptions>;
