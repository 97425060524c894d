import { DEMO, TEST_KEY } from '../../server/fixtures.js';
import { createReferenceServer } from '../../server/reference-server.js';
import type { CommandContext } from '../context.js';
import type { ServeOptions } from '../options/serve-options.js';
import { parseIntOption, UsageError } from '../usage-error.js';

/** `svc serve`: the reference server until SIGINT/SIGTERM. First stdout line is the contract. */
export async function serve(ctx: CommandContext, opts: ServeOptions): Promise<number> {
  const port = parseIntOption(opts.port, '--port', 0, 65535);
  const seed =
    opts.seedAuditEvents === undefined
      ? undefined
      : parseIntOption(opts.seedAuditEvents, '--seed-audit-events', 0, 5_000_000);
  let server: Awaited<ReturnType<typeof createReferenceServer>>;
  try {
    server = await createReferenceServer({ host: opts.host, port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} on ${opts.host} is in use; pick another with --port (0 for any free port)`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`cannot bind to host '${opts.host}'`);
    throw error;
  }
  server.admin.seedDemoData(seed === undefined ? {} : { auditEvents: seed });
  ctx.out.line(`svc reference server listening on ${server.url}`);
  const keys: Array<[string, string]> = [
    [DEMO.projectKey, 'project demo, every feature'],
    [DEMO.agencyKey, 'agency demo-agency (audit log, Auditor role)'],
    [DEMO.basicKey, 'plan without scheduled validation and audit log, 25 identifiers'],
    [DEMO.lockedKey, 'locked project (402)'],
    [DEMO.expiredKey, 'expired key (403)'],
    [`${TEST_KEY.slice(0, 6)}...x`, 'documented test key (ak_ + 49 x)'],
    [DEMO.captchaSecret, 'deprecated secret key of captcha demo (legacy API)'],
  ];
  const width = Math.max(...keys.map(([key]) => key.length));
  for (const line of [
    'fixture keys:',
    ...keys.map(([key, what]) => `  ${key.padEnd(width)}  ${what}`),
    `console: ${server.url}/__console`,
    `admin API: ${server.url}/__admin (loopback only; lists every route, docs/reference-server.md)`,
    'stop with Ctrl-C',
  ])
    ctx.out.line(line);
  await ctx.signals.untilInterrupted();
  await server.close();
  ctx.out.info('reference server stopped');
  return 0;
}
