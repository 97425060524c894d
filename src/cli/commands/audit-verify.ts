import { readFile } from 'node:fs/promises';
import { verifyAuditArchive } from '../../audit/archive-verify.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';

/**
 * `svc audit verify DIR`: one line per problem on stdout; exit 0 only when the archive is whole,
 * 1 when any problem was found or a file cannot be read, 2 when DIR is not a directory.
 */
export async function auditVerify(ctx: CommandContext, dir: unknown, options: unknown): Promise<number> {
  const { publicKey: keyFile } = options as { publicKey?: string };
  let publicKey: string | undefined;
  if (keyFile !== undefined) {
    try {
      publicKey = await readFile(keyFile, 'utf8');
    } catch {
      throw new UsageError(`--public-key: cannot read ${keyFile}`);
    }
  }
  const result = await verifyAuditArchive(String(dir), publicKey === undefined ? {} : { publicKey });
  for (const problem of result.problems) ctx.io.stdout.write(`${problem.message}\n`);
  if (result.ok) {
    ctx.info(
      `archive whole: ${result.runs} runs, ${result.events} events${publicKey ? ', every manifest signed' : ''}`,
    );
    return EXIT.OK;
  }
  ctx.info(`archive not whole: ${result.problems.length} problems in ${result.runs} runs`);
  return EXIT.FAILURE;
}
