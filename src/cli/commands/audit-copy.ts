import { copyAuditArchive } from '../../audit/archive/copy.js';
import type { CommandContext } from '../context.js';
import type { AuditCopyOptions } from '../definitions/audit-archive.js';
import { EXIT } from '../exit-codes.js';
import { bucketSettings } from './bucket-settings.js';

/**
 * `svc audit copy SRC DST`: one line per object on stderr as it is copied, a summary, and the head
 * on stdout in the form `audit sync` prints it (`head sha256:HEX manifest-NNNNNN.json`), so the
 * anchor kept outside the archive can be checked against the copy with `verify --head`.
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
  for (const name of result.skipped) ctx.out.warn(`not copied: ${name} is not a regular file`);
  const bytes = result.copied.reduce((sum, object) => sum + object.bytes, 0);
  const resumed = result.present.length ? `, ${result.present.length} were there already` : '';
  ctx.out.info(
    `copied ${result.copied.length} objects (${bytes} bytes) from ${source} to ${destination}${resumed}; each read back equal (sha256)`,
  );
  if (result.head) ctx.out.line(`head sha256:${result.head.sha256} ${result.head.manifest}`);
  return EXIT.OK;
}
