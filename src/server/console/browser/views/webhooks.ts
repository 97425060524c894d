import type { ConsoleEnvelope, WebhookDeliveryEvent } from '../../../events/types.js';
import { post } from '../api.js';
import { el, panel } from '../dom.js';
import type { View } from '../state.js';

const LIST = '/__admin/webhook-deliveries';

/** Reads a delivery of `GET /__admin/webhook-deliveries` leniently (names may differ a little). */
function normalize(raw: Record<string, unknown>): WebhookDeliveryEvent {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: String(raw.id ?? ''),
    url: String(raw.url ?? ''),
    eventType: String(raw.eventType ?? raw.event ?? raw.type ?? ''),
    attempts: Number(raw.attempts ?? 0),
    lastStatus: typeof raw.lastStatus === 'number' ? raw.lastStatus : null,
    lastError: text(raw.lastError),
    state: String(raw.state ?? ''),
  };
}

/**
 * Webhook deliveries, newest first: what the server lists at `GET /__admin/webhook-deliveries`
 * (when it has that route), then live updates; Redeliver where the server can redeliver.
 */
export function webhooksView(): View {
  const { root, body } = panel('webhooks', 'Webhook deliveries');
  const list = el('ol', { class: 'rows' });
  const empty = el(
    'p',
    { class: 'empty' },
    'No delivery yet. Register an endpoint (POST /__admin/webhook-endpoints) and validate an ID.',
  );
  body.append(list, empty);
  const rows = new Map<string, HTMLElement>();
  let canRedeliver = false;

  const show = (d: WebhookDeliveryEvent, atStart: boolean) => {
    const children = deliveryLine(d);
    if (canRedeliver) children.push(redeliverButton(d.id, () => refresh()));
    let row = rows.get(d.id);
    if (!row) {
      row = el('li', { attrs: { 'data-delivery-id': d.id } });
      rows.set(d.id, row);
      if (atStart) list.prepend(row);
      else list.append(row);
      while (rows.size > 200) {
        const oldest = list.lastElementChild as HTMLElement | null;
        rows.delete(oldest?.dataset.deliveryId ?? '');
        oldest?.remove();
      }
    }
    empty.hidden = true;
    row.replaceChildren(...children);
  };

  const pending = new Set(['queued', 'sending', 'retrying']);
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Reads the server's list (404: a server without one; live events only) and shows it. */
  const load = async () => {
    const res = await fetch(`${LIST}?limit=200`, { credentials: 'same-origin' });
    if (!res.ok) return;
    const body = (await res.json()) as unknown;
    canRedeliver = true;
    const items = Array.isArray(body)
      ? body
      : ((body as { deliveries?: unknown[] } | undefined)?.deliveries ?? []);
    const deliveries = items.map((item) => normalize(item as Record<string, unknown>));
    for (const d of [...deliveries].reverse()) show(d, true);
    // Deliveries under way change without telling anyone: look again shortly.
    if (deliveries.some((d) => pending.has(d.state))) refresh(1000);
  };
  /** Reloads the list soon (once for a burst of events). */
  const refresh = (delayMs = 300) => {
    if (!canRedeliver || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void load().catch(() => undefined);
    }, delayMs);
  };
  void load().catch(() => undefined);

  return {
    root,
    event(envelope: ConsoleEnvelope) {
      if (envelope.type === 'webhook') show(envelope.data, true);
      // A validation sends webhooks; the server's list has them first.
      if (envelope.type === 'tax' || envelope.type === 'webhook') refresh();
    },
    reset() {
      rows.clear();
      list.replaceChildren();
      empty.hidden = false;
    },
  };
}

/** A delivery's state, event type, URL and attempts. */
function deliveryLine(d: WebhookDeliveryEvent): Node[] {
  const status = d.lastStatus !== null ? String(d.lastStatus) : (d.lastError ?? '-');
  return [
    el('span', { class: `badge delivery-${d.state}` }, d.state),
    el('span', { class: 'muted' }, d.eventType),
    el('code', { class: 'url', attrs: { title: d.url } }, d.url),
    el('span', {}, `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}, last ${status}`),
  ];
}

/** Asks the server to deliver `id` again, then `redelivered()` (the list reloads). */
function redeliverButton(id: string, redelivered: () => void): HTMLElement {
  return el(
    'button',
    {
      attrs: { type: 'button', 'aria-label': `Redeliver ${id}` },
      on: {
        click: async () => {
          if (await post(`${LIST}/${encodeURIComponent(id)}/redeliver`)) redelivered();
        },
      },
    },
    'Redeliver',
  );
}
