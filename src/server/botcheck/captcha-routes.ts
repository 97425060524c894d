import { TEST_KEY } from '../fixtures.js';
import { sendJson } from '../http-io.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import { currentResultOf } from './render.js';
import type { VerificationStore } from './store.js';
import { isTestId, testIdAnswer } from './test-ids.js';

/** `GET /captcha/v2/verifications/{id}/results`: the current bot-check result API (Bearer project key). */
export function captchaRoutes(state: ServerState, store: VerificationStore): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/captcha/v2/verifications/:verificationId/results',
      auth: { api: 'captcha' },
      handle: ({ res, params, principal }) => {
        state.stats.verificationFetches += 1;
        const id = params.verificationId ?? '';
        const item = isTestId(id)
          ? testIdAnswer(id, principal === state.principals.get(TEST_KEY), 'current', state.clock.now())
          : store.consume(id, { by: 'key', captchaId: principal.captchaId }, 'current');
        sendJson(res, 200, currentResultOf(item));
      },
    },
  ];
}
