import { dummyOutcomeOf } from '../../botcheck/dev-outcomes.js';
import { DEMO, TEST_KEY } from '../fixtures.js';
import { sendJson } from '../http-io.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import { dummyAnswer } from './outcomes.js';
import { currentResultOf } from './render.js';
import type { VerificationStore } from './store.js';
import { isTestId, testIdAnswer } from './test-ids.js';

/**
 * `GET /captcha/v2/verifications/{id}/results`: the current bot-check result API (Bearer project
 * key). Dummy ids answer any accepted key, the same on every fetch.
 */
export function captchaRoutes(state: ServerState, store: VerificationStore): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/captcha/v2/verifications/:verificationId/results',
      auth: { api: 'captcha' },
      handle: ({ res, params, principal }) => {
        state.stats.verificationFetches += 1;
        const id = params.verificationId ?? '';
        const dummy = dummyOutcomeOf(id);
        const now = state.clock.now();
        const item = dummy
          ? dummyAnswer(dummy, principal.captchaId ?? DEMO.captchaId, now)
          : isTestId(id)
            ? testIdAnswer(id, principal === state.principals.get(TEST_KEY), 'current', now)
            : store.consume(id, { by: 'key', captchaId: principal.captchaId }, 'current');
        sendJson(res, 200, currentResultOf(item));
      },
    },
  ];
}
