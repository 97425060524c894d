import './console.css';
import type { ConsoleEnvelope, ConsoleSettings } from '../../events/types.js';
import { announce, post, setStatusLine } from './api.js';
import { el } from './dom.js';
import type { ConsoleMeta, View } from './state.js';
import { auditView } from './views/audit.js';
import { clockView } from './views/clock.js';
import { faultsView } from './views/faults.js';
import { providersView } from './views/providers.js';
import { requestsView } from './views/requests.js';
import { taxView } from './views/tax.js';
import { verificationsView } from './views/verifications.js';
import { webhooksView } from './views/webhooks.js';

const EVENT_TYPES = ['request', 'verification', 'tax', 'webhook', 'audit'] as const;

/** Lays out the views: requests and deliveries, verifications and tax results, then the controls. */
function build(root: HTMLElement, meta: ConsoleMeta, connection: HTMLElement): View[] {
  const views = {
    requests: requestsView(),
    webhooks: webhooksView(),
    verifications: verificationsView(meta),
    tax: taxView(),
    clock: clockView(),
    providers: providersView(meta),
    faults: faultsView(meta),
    audit: auditView(),
  };
  const status = el('p', { class: 'status-line', attrs: { role: 'status', 'aria-live': 'polite' } });
  setStatusLine(status);
  root.replaceChildren(
    el(
      'header',
      { class: 'top' },
      el('h1', {}, 'svc dev console'),
      connection,
      status,
      el(
        'button',
        {
          class: 'danger',
          attrs: { type: 'button' },
          on: {
            click: async () => {
              if (await post('/__admin/reset')) announce('Server reset');
            },
          },
        },
        'Reset server',
      ),
    ),
    el(
      'div',
      { class: 'grid' },
      el('div', { class: 'col col-log' }, views.requests.root, views.webhooks.root),
      el('div', { class: 'col col-botcheck' }, views.verifications.root, views.tax.root),
      el(
        'div',
        { class: 'col col-controls' },
        views.clock.root,
        views.providers.root,
        views.faults.root,
        views.audit.root,
      ),
    ),
  );
  root.setAttribute('aria-busy', 'false');
  return Object.values(views);
}

/** Connects to `/__console/events` and hands every message to the views. */
function start(root: HTMLElement): void {
  const connection = el('span', { class: 'connection', attrs: { 'data-state': 'connecting' } }, 'connecting');
  let views: View[] = [];
  let settings: ConsoleSettings | undefined;
  let settingsAt = Date.now();
  const serverNow = () =>
    settings ? settings.clock.now + (settings.clock.frozen ? 0 : Date.now() - settingsAt) : Date.now();

  const source = new EventSource('/__console/events');
  const setConnection = (state: string, text: string) => {
    connection.dataset.state = state;
    connection.textContent = text;
  };
  source.addEventListener('open', () => setConnection('live', 'live'));
  source.addEventListener('error', () => setConnection('down', 'reconnecting...'));
  source.addEventListener('meta', (message) => {
    if (views.length === 0) views = build(root, JSON.parse(message.data) as ConsoleMeta, connection);
  });
  source.addEventListener('settings', (message) => {
    settings = JSON.parse(message.data) as ConsoleSettings;
    settingsAt = Date.now();
    for (const view of views) view.settings?.(settings);
    for (const view of views) view.tick?.(serverNow());
  });
  source.addEventListener('reset', () => {
    for (const view of views) view.reset?.();
  });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (message) => {
      const envelope = JSON.parse(message.data) as ConsoleEnvelope;
      for (const view of views) view.event?.(envelope);
    });
  }
  setInterval(() => {
    const now = serverNow();
    for (const view of views) view.tick?.(now);
  }, 1000);
}

const root = document.getElementById('console');
if (root) start(root);
