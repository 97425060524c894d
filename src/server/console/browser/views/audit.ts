import type { ConsoleEnvelope } from '../../../events/types.js';
import { announce, post } from '../api.js';
import { el, panel, prepend, timeOf } from '../dom.js';
import type { View } from '../state.js';

/** Audit events: seed N for the project or the agency; what was added, newest first. */
export function auditView(): View {
  const { root, body } = panel('audit', 'Audit events');
  const count = el('input', {
    attrs: { id: 'audit-count', type: 'number', min: '1', max: '100000', value: '100', required: '' },
  });
  const scope = el(
    'select',
    { attrs: { id: 'audit-scope' } },
    el('option', { attrs: { value: 'project' } }, 'project demo'),
    el('option', { attrs: { value: 'agency' } }, 'agency demo-agency'),
  );
  const form = el(
    'form',
    {
      class: 'inline',
      on: {
        submit: async (event) => {
          event.preventDefault();
          const added = (await post('/__admin/audit-events', {
            count: count.valueAsNumber,
            scope: scope.value,
          })) as { added: number } | undefined;
          if (added) announce(`Seeded ${added.added} audit events`);
        },
      },
    },
    el('label', { attrs: { for: 'audit-count' } }, 'Seed'),
    count,
    el('label', { attrs: { for: 'audit-scope' } }, 'events for'),
    scope,
    el('button', { attrs: { type: 'submit' } }, 'Seed'),
  );
  const list = el('ol', { class: 'rows' });
  body.append(form, list);
  return {
    root,
    event(envelope: ConsoleEnvelope) {
      if (envelope.type !== 'audit') return;
      const a = envelope.data;
      prepend(
        list,
        el(
          'li',
          {},
          el('span', { class: 'time' }, timeOf(envelope.at)),
          el('span', {}, `+${a.added} ${a.scope} ${a.ownerId}`),
          el('span', { class: 'muted' }, `${a.from.slice(0, 16)} to ${a.to.slice(0, 16)}`),
        ),
        50,
      );
    },
    reset() {
      list.replaceChildren();
    },
  };
}
