import type { ServerModule } from '../module.js';
import type { ServerState } from '../state.js';
import { type TaxAdmin, taxAdmin, taxAdminRoutes } from './admin.js';
import { Completer } from './completion.js';
import { taxRoutes } from './routes.js';
import { TaxStore } from './store.js';
import { resultEvents } from './webhook-events.js';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender.js';

/** The tax-validation API: its store, its five endpoints, webhook delivery and admin controls. */
export function taxModule(
  state: ServerState,
  webhookOptions?: WebhookSenderOptions,
): ServerModule & { admin: TaxAdmin } {
  const store = new TaxStore(state);
  const webhooks = new WebhookSender(state, webhookOptions);
  const completer = new Completer(store, resultEvents(webhooks, store));
  const admin = taxAdmin(store, webhooks);
  return {
    admin,
    routes: [...taxRoutes(store, completer), ...taxAdminRoutes(admin)],
    close: () => {
      completer.close();
      webhooks.close();
    },
  };
}
