import type { ConsoleEnvelope } from '../../../events/types.js';
import { el, panel, prepend, timeOf } from '../dom.js';
import type { View } from '../state.js';

/** Completed tax validations, newest first, with their outcome and registry. */
export function taxView(): View {
  const { root, body } = panel('tax', 'Tax validations');
  const list = el('ol', { class: 'rows' });
  const empty = el('p', { class: 'empty' }, 'No validation yet (svc validate DE 136695976 --sandbox).');
  body.append(list, empty);
  return {
    root,
    event(envelope: ConsoleEnvelope) {
      if (envelope.type !== 'tax') return;
      const t = envelope.data;
      empty.hidden = true;
      prepend(
        list,
        el(
          'li',
          { attrs: { 'data-result-id': t.validationResultId } },
          el('span', { class: 'time' }, timeOf(envelope.at)),
          el('code', {}, `${t.countryCode} ${t.rawValue}`),
          el('span', { class: `badge tax-${t.outcome}` }, t.outcome),
          el('span', { class: 'muted' }, t.provider ?? 'no registry'),
        ),
      );
    },
    reset() {
      list.replaceChildren();
      empty.hidden = false;
    },
  };
}
