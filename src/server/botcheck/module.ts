import { DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { adminBody } from '../admin-core.js';
import { sendJson } from '../http-io.js';
import type { ServerModule } from '../module.js';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';
import { captchaRoutes } from './captcha-routes.js';
import { legacyRoutes } from './legacy-routes.js';
import { CreateVerificationRequest } from './outcomes.js';
import {
  type CreatedVerification,
  CreateVerificationBody,
  type CreateVerificationInput,
  VerificationStore,
} from './store.js';

/** In-process admin operations of the bot-check APIs (same as the `/__admin/verifications` routes). */
export interface BotCheckAdmin {
  /**
   * Creates a verification of the demo captcha (finished by default; `outcome` presets the
   * fields for one dev outcome); returns its id, token and access token.
   */
  createVerification(input?: CreateVerificationInput): CreatedVerification;
  /** Finishes a verification created with `finished: false`; its validity starts now. */
  finishVerification(verificationId: string): void;
}

/** Both bot-check APIs, their verification store and admin routes. */
export function botCheckModule(state: ServerState): ServerModule & { admin: BotCheckAdmin } {
  const store = new VerificationStore(state);
  const admin: BotCheckAdmin = {
    createVerification: (input = {}) => {
      const parsed = CreateVerificationRequest.safeParse(input);
      if (!parsed.success) throw new Error(`invalid verification: ${parsed.error.message}`);
      return store.create(parsed.data);
    },
    finishVerification: (verificationId) => {
      if (!store.finish(verificationId)) throw new Error(`unknown verification ${verificationId}`);
    },
  };
  return {
    admin,
    routes: [
      ...captchaRoutes(state, store),
      ...legacyRoutes(state, store),
      {
        method: 'POST',
        pattern: '/__admin/verifications',
        doc: {
          summary: `Creates a verification of the demo captcha; outcome presets the other fields (${DEV_OUTCOMES.join(', ')}), fields given win. Its result answers once (maxFetches).`,
          body: CreateVerificationBody,
          example: { outcome: 'pass' },
          returns: '201 {verificationId, token, accessToken}',
        },
        handle: async ({ req, res }) => {
          sendJson(res, 201, store.create(await adminBody(req, CreateVerificationRequest)));
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/verifications/:verificationId/finish',
        doc: {
          summary: 'Finishes an unfinished verification (423 until then); its validity starts now.',
          examplePath: '/__admin/verifications/VERIFICATION_ID/finish',
          returns: '200 {verificationId, finishedAt}',
        },
        handle: ({ res, params }) => {
          const item = store.finish(params.verificationId ?? '');
          if (!item) throw new HttpProblem(404, 'Unknown verificationId');
          sendJson(res, 200, {
            verificationId: item.verificationId,
            finishedAt: new Date(item.finishedAt ?? state.clock.now()).toISOString(),
          });
        },
      },
    ],
  };
}
