import * as z from 'zod/mini';
import { DEV_OUTCOME_DESCRIPTIONS, DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { adminBody } from '../admin-core.js';
import type { BotCheckAdmin } from '../botcheck/module.js';
import { sendAsset } from '../console/assets.js';
import { BODY_LIMITS, sendJson } from '../http-io.js';
import type { ServerModule } from '../module.js';

const WidgetBody = z.strictObject({ outcome: z.enum(DEV_OUTCOMES) });

/**
 * `GET /__widget.js` (the stand-in widget) and `POST /__widget/verifications` `{outcome}` ->
 * `{verificationId, token, outcome}`: the one dev endpoint that pages served from loopback
 * (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`) may call, with CORS. The app's
 * dev guard answers its preflight and refuses every other origin and non-JSON bodies.
 */
export function widgetModule(botCheck: BotCheckAdmin): ServerModule {
  return {
    routes: [
      {
        method: 'GET',
        pattern: '/__widget.js',
        doc: {
          summary:
            'The stand-in widget: load /__widget.js with a script tag, then put <svc-captcha outcome="pass"> in a form',
          returns: '200 text/javascript',
        },
        handle: ({ res }) => sendAsset(res, 'widget.js', { 'cross-origin-resource-policy': 'cross-origin' }),
      },
      {
        method: 'POST',
        pattern: '/__widget/verifications',
        cors: 'loopback',
        doc: {
          summary: `Creates a verification for the widget (CORS for loopback pages). Outcomes: ${DEV_OUTCOMES.map(
            (o) => `${o} (${DEV_OUTCOME_DESCRIPTIONS[o]})`,
          ).join('; ')}`,
          body: WidgetBody,
          example: { outcome: 'pass' },
          returns: '201 {verificationId, token, outcome}',
        },
        handle: async ({ req, res }) => {
          const { outcome } = await adminBody(req, WidgetBody, BODY_LIMITS.widget);
          const { verificationId, token } = botCheck.createVerification({ outcome });
          sendJson(res, 201, { verificationId, token, outcome });
        },
      },
    ],
  };
}
