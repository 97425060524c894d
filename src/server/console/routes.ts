import { DEV_OUTCOME_DESCRIPTIONS, DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { PROVIDERS } from '../../tax/enums.js';
import { FAULT_KINDS } from '../faults.js';
import type { ServerModule } from '../module.js';
import type { ServerState } from '../state.js';
import { sendAsset } from './assets.js';
import { CONSOLE_CSP, CONSOLE_HTML } from './page.js';
import { openEventStream } from './sse.js';

/** What the console needs to draw its controls; sent first on every stream. */
function consoleMeta() {
  return {
    outcomes: DEV_OUTCOMES.map((name) => ({ name, description: DEV_OUTCOME_DESCRIPTIONS[name] })),
    providers: [...PROVIDERS],
    faultKinds: [...FAULT_KINDS],
  };
}

/** `GET /__console` (the page), `/__console/assets/console.{js,css}` and `/__console/events` (SSE). */
export function consoleModule(state: ServerState): ServerModule {
  const pageHeaders = {
    'content-security-policy': CONSOLE_CSP,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
  return {
    routes: [
      {
        method: 'GET',
        pattern: '/__console',
        doc: {
          summary: 'The dev console: every request, verification, validation and delivery, live',
          returns: '200 text/html',
        },
        handle: ({ res }) => {
          res.writeHead(200, {
            ...pageHeaders,
            'content-type': 'text/html; charset=utf-8',
            'content-length': Buffer.byteLength(CONSOLE_HTML),
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          });
          res.end(CONSOLE_HTML);
        },
      },
      {
        method: 'GET',
        pattern: '/__console/assets/console.js',
        doc: { summary: "The console's script", returns: '200 text/javascript' },
        handle: ({ res }) => sendAsset(res, 'console.js'),
      },
      {
        method: 'GET',
        pattern: '/__console/assets/console.css',
        doc: { summary: "The console's styles", returns: '200 text/css' },
        handle: ({ res }) => sendAsset(res, 'console.css'),
      },
      {
        method: 'GET',
        pattern: '/__console/events',
        doc: {
          summary:
            'Server-Sent Events of the console: meta, settings, then request, verification, tax, webhook, audit',
          returns: '200 text/event-stream',
        },
        handle: ({ req, res }) => openEventStream(state.events, req, res, consoleMeta()),
      },
    ],
  };
}
