import { VERSION } from '../../version.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';

/** `svc version`: prints the package version on stdout, as `svc --version` does. */
export function version(ctx: CommandContext): number {
  ctx.out.line(VERSION);
  return EXIT.OK;
}
