import type { ConsoleSettings } from '../../../events/types.js';
import { post } from '../api.js';
import { el, panel } from '../dom.js';
import type { ConsoleMeta, View } from '../state.js';

/** Fault injection on the API routes: share of requests, kinds, seed; on or off. */
export function faultsView(meta: ConsoleMeta): View {
  const { root, body } = panel('faults', 'Fault injection');
  const current = el('p', { class: 'muted', attrs: { 'aria-live': 'polite' } }, 'off');
  const rate = el('input', {
    attrs: { id: 'fault-rate', type: 'number', min: '0', max: '1', step: '0.05', value: '0.2' },
  });
  const seed = el('input', { attrs: { id: 'fault-seed', type: 'number', step: '1', value: '1' } });
  const kinds = meta.faultKinds.map((kind) =>
    el('input', { attrs: { type: 'checkbox', id: `fault-${kind}`, value: kind, checked: '' } }),
  );
  const form = el(
    'form',
    {
      on: {
        submit: (event) => {
          event.preventDefault();
          void post('/__admin/faults', {
            rate: rate.valueAsNumber,
            seed: seed.valueAsNumber,
            kinds: kinds.filter((k) => k.checked).map((k) => k.value),
          });
        },
      },
    },
    el(
      'div',
      { class: 'fields' },
      el('label', { attrs: { for: 'fault-rate' } }, 'Rate (0 to 1)'),
      rate,
      el('label', { attrs: { for: 'fault-seed' } }, 'Seed'),
      seed,
    ),
    el(
      'fieldset',
      { class: 'kinds' },
      el('legend', {}, 'Kinds'),
      ...kinds.map((input) => el('label', { attrs: { for: input.id } }, input, ` ${input.value}`)),
    ),
    el(
      'div',
      { class: 'buttons' },
      el('button', { attrs: { type: 'submit' } }, 'Inject'),
      el(
        'button',
        { attrs: { type: 'button' }, on: { click: () => post('/__admin/faults', { rate: 0 }) } },
        'Off',
      ),
    ),
  );
  body.append(current, form);
  return {
    root,
    settings(settings: ConsoleSettings) {
      const f = settings.faults;
      current.textContent = f
        ? `on: ${Math.round(f.rate * 100)}% of API requests (${f.kinds.join(', ')}), seed ${f.seed}`
        : 'off';
      root.dataset.active = String(Boolean(f));
    },
  };
}
