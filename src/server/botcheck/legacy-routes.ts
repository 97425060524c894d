import { dummyOutcomeOf } from '../../botcheck/dev-outcomes.js';
import { isVerificationId } from '../../botcheck/schemas.js';
import { authenticate } from '../auth.js';
import { DEMO, TEST_KEY } from '../fixtures.js';
import { sendJson } from '../http-io.js';
import { HttpProblem } from '../problem.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import { dummyAnswer } from './outcomes.js';
import { legacyAssessmentOf } from './render.js';
import { ACCESS_TOKEN_PATTERN, type ResultCaller, type VerificationStore } from './store.js';
import { isTestId, testIdAnswer } from './test-ids.js';

/**
 * `GET /verifications/{id}/assessments`: the legacy bot-check result API. Authenticates itself,
 * since the oldest clients send a per-verification access token as `?accessToken=` instead of the
 * `svc-authorization` header.
 */
export function legacyRoutes(state: ServerState, store: VerificationStore): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/verifications/:verificationId/assessments',
      auth: { api: 'legacy', custom: true },
      handle: ({ req, res, params, query }) => {
        const accessToken = query.get('accessToken') ?? undefined;
        const keyed = req.headers['svc-authorization'] !== undefined || accessToken === undefined;
        const principal = keyed ? authenticate(req, state.principals, 'legacy') : undefined;
        const id = params.verificationId ?? '';
        if (!isVerificationId(id)) throw new HttpProblem(400, 'verificationId is not a UUID');
        if (accessToken !== undefined && !ACCESS_TOKEN_PATTERN.test(accessToken)) {
          throw new HttpProblem(400, 'accessToken does not match the format');
        }
        state.stats.verificationFetches += 1;
        const dummy = dummyOutcomeOf(id);
        if (dummy) {
          if (!principal) throw new HttpProblem(403, 'Dummy verification ids require a key');
          const answer = dummyAnswer(dummy, principal.captchaId ?? DEMO.captchaId, state.clock.now());
          return sendJson(res, 200, legacyAssessmentOf(answer));
        }
        if (isTestId(id)) {
          if (!principal) throw new HttpProblem(403, 'Test verification ids require the test key');
          const sample = testIdAnswer(
            id,
            principal === state.principals.get(TEST_KEY),
            'legacy',
            state.clock.now(),
          );
          return sendJson(res, 200, legacyAssessmentOf(sample));
        }
        const caller: ResultCaller = principal
          ? { by: 'key', captchaId: principal.captchaId, accessToken }
          : { by: 'accessToken', accessToken: accessToken as string };
        sendJson(res, 200, legacyAssessmentOf(store.consume(id, caller, 'legacy')));
      },
    },
  ];
}
