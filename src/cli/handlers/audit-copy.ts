import { copyAuditArchive } from '../../node/audit-archive/copy.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditCopyOptions } from '../options/audit-copy-options.js';
import { bucketSettings } from './bucket-settings.js';

/**
 * `svc audit copy SRC DST`: one line per object on stderr as it is copied, one warning per source
 * name left (escaped, as every human line), a summary, and the head on stdout in the form `audit
 * sync` prints it (`head sha256:HEX manifest-NNNNNN.json`), so the anchor kept outside the archive
 * can be checked against the copy with `verify --head`. Exit 0 when DST holds the whole archive
 * (names that are not an archive's left, each named), 5 when an object of the archive was left.
 */
export async function auditCopy(
  ctx: CommandContext,
  source: string,
  destination: string,
  flags: AuditCopyOptions,
): Promise<number> {
  const result = await copyAuditArchive(String(source), String(destination), {
    s3: bucketSettings(ctx, flags),
    onObject: (object) => ctx.out.info(`copied ${object.name} (${object.bytes} bytes)`),
    ...ctx.signals.abortable,
  });
  const why = new Map(result.incomplete.map((object) => [object.name, object.reason]));
  for (const name of result.skipped) {
    const reason = why.get(name);
    ctx.out.warn(
      reason === undefined
        ? `not copied: ${name} is not a name of an archive (only manifests, data and conflicts files, sync-state.json)`
        : `not copied: ${name}, an object of the archive: ${reason}`,
    );
  }
  const bytes = result.copied.reduce((sum, object) => sum + object.bytes, 0);
  const resumed = result.present.length ? `, ${result.present.length} were there already` : '';
  const left = result.skipped.length ? `; ${result.skipped.length} not copied (named above)` : '';
  ctx.out.info(
    `copied ${result.copied.length} objects (${bytes} bytes) from ${source} to ${destination}${resumed}; each read back equal (sha256)${left}`,
  );
  if (result.head) ctx.out.line(`head sha256:${result.head.sha256} ${result.head.manifest}`);
  if (result.incomplete.length === 0) return EXIT.OK;
  ctx.out.warn(
    `${destination} does not hold the whole archive: ${result.incomplete.length} of its objects not copied`,
  );
  return EXIT.INCOMPLETE;
}
