import type { ConsoleEnvelope } from '../../../events/types.js';
import { el, panel, prepend, timeOf } from '../dom.js';
import type { View } from '../state.js';

/** Every API request, newest first: time, method, path, status, latency, masked key. */
export function requestsView(): View {
  const { root, body } = panel('requests', 'API requests');
  const rows = el('tbody');
  const empty = el('p', { class: 'empty' }, 'No API request yet. Point a client or the CLI at this server.');
  body.append(
    el(
      'table',
      { class: 'log' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { attrs: { scope: 'col' } }, 'Time'),
          el('th', { attrs: { scope: 'col' } }, 'Request'),
          el('th', { attrs: { scope: 'col' }, class: 'num' }, 'Status'),
          el('th', { attrs: { scope: 'col' }, class: 'num' }, 'ms'),
          el('th', { attrs: { scope: 'col' } }, 'Key'),
        ),
      ),
      rows,
    ),
    empty,
  );
  return {
    root,
    event(envelope: ConsoleEnvelope) {
      if (envelope.type !== 'request') return;
      const r = envelope.data;
      empty.hidden = true;
      const statusClass = r.status >= 500 ? 'bad' : r.status >= 400 ? 'warn' : 'good';
      prepend(
        rows,
        el(
          'tr',
          { attrs: { 'data-request-id': r.requestId } },
          el('td', { class: 'time' }, timeOf(envelope.at)),
          el('td', { class: 'path' }, el('span', { class: 'method' }, r.method), ' ', el('span', {}, r.path)),
          el('td', { class: `num status ${statusClass}` }, r.status),
          el('td', { class: 'num' }, r.latencyMs.toFixed(1)),
          el('td', { class: 'key', attrs: { title: r.key ?? 'no key' } }, r.principal ?? '-'),
        ),
      );
    },
    reset() {
      rows.replaceChildren();
      empty.hidden = false;
    },
  };
}
