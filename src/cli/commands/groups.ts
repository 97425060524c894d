import { defineGroup } from '../command.js';

// The groups of `svc` whose commands are modules of their own (config's group is in config.ts).

/** `svc results`. */
export const resultsGroup = defineGroup({ path: 'results', summary: 'stored validation results' });

/** `svc schedules`. */
export const schedulesGroup = defineGroup({ path: 'schedules', summary: 'recurring validations' });

/** `svc webhooks`. */
export const webhooksGroup = defineGroup({ path: 'webhooks', summary: 'receive webhook events locally' });

/** `svc audit`. */
export const auditGroup = defineGroup({ path: 'audit', summary: 'read, export and follow the audit log' });

/** `svc captcha`: its commands exit 0 accept, 3 reject, 4 extra check. */
export const captchaGroup = defineGroup({
  path: 'captcha',
  summary: 'fetch and evaluate bot-check results (exit 0 accept, 3 reject, 4 extra check, 1 error)',
});

/** `svc token`. */
export const tokenGroup = defineGroup({ path: 'token', summary: 'verification tokens' });
