import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { adminBody } from '../admin-core.js';
import type { BotCheckAdmin } from '../botcheck/module.js';
import { sendAsset } from '../console/assets.js';
import { sendEmpty, sendJson } from '../http-io.js';
import type { ServerModule } from '../module.js';
import { HttpProblem } from '../problem.js';
import { isLoopbackOrigin } from './origins.js';

/** Largest body the widget endpoint reads; `{"outcome":"unfinished"}` is 24 bytes. */
const MAX_WIDGET_BODY = 1024;

const WidgetBody = z.strictObject({ outcome: z.enum(DEV_OUTCOMES) });

/**
 * CORS of the widget endpoint: a loopback page gets its origin echoed; any other `Origin` gets
 * 403 and no CORS header, so a foreign page neither creates nor reads anything.
 */
function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('vary', 'Origin');
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (!isLoopbackOrigin(origin)) {
    throw new HttpProblem(
      403,
      'The widget endpoint answers pages served from localhost, 127.0.0.1 or [::1] only',
    );
  }
  res.setHeader('access-control-allow-origin', origin);
}

/**
 * `GET /__widget.js` (the stand-in widget) and `POST /__widget/verifications` `{outcome}` ->
 * `{verificationId, token}`, the one dev endpoint that answers loopback pages with CORS.
 */
export function widgetModule(botCheck: BotCheckAdmin): ServerModule {
  return {
    routes: [
      {
        method: 'GET',
        pattern: '/__widget.js',
        handle: ({ res }) => sendAsset(res, 'widget.js', { 'cross-origin-resource-policy': 'cross-origin' }),
      },
      {
        method: 'OPTIONS',
        pattern: '/__widget/verifications',
        handle: ({ req, res }) => {
          allowOrigin(req, res);
          res.setHeader('access-control-allow-methods', 'POST');
          res.setHeader('access-control-allow-headers', 'content-type');
          res.setHeader('access-control-max-age', '600');
          sendEmpty(res, 204);
        },
      },
      {
        method: 'POST',
        pattern: '/__widget/verifications',
        handle: async ({ req, res }) => {
          allowOrigin(req, res);
          const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
          if (type !== 'application/json') {
            throw new HttpProblem(415, 'Send the widget request as Content-Type: application/json');
          }
          if (Number(req.headers['content-length'] ?? 0) > MAX_WIDGET_BODY) {
            throw new HttpProblem(413, `Widget request body over ${MAX_WIDGET_BODY} bytes`);
          }
          const { outcome } = await adminBody(req, WidgetBody);
          const { verificationId, token } = botCheck.createVerification({ outcome });
          sendJson(res, 201, { verificationId, token, outcome });
        },
      },
    ],
  };
}
