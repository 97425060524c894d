import type { ConsoleSettings } from '../../../events/types.js';
import { post } from '../api.js';
import { el, panel } from '../dom.js';
import type { View } from '../state.js';

const STEPS: Array<[string, number]> = [
  ['+1 min', 60_000],
  ['+16 min', 16 * 60_000],
  ['+1 h', 3_600_000],
  ['+1 day', 86_400_000],
];

/** The server clock: its time, advance buttons (16 min expires a result), freeze, back to now. */
export function clockView(): View {
  const { root, body } = panel('clock', 'Clock');
  const time = el('output', { class: 'clock-now', attrs: { 'aria-live': 'off' } }, '');
  const offset = el('span', { class: 'muted' }, '');
  let frozen = false;
  const freeze = el(
    'button',
    {
      attrs: { type: 'button', 'aria-pressed': 'false' },
      on: { click: () => post('/__admin/clock', { frozen: !frozen }) },
    },
    'Freeze',
  );
  const buttons = el('div', { class: 'buttons' });
  for (const [label, ms] of STEPS) {
    buttons.append(
      el(
        'button',
        { attrs: { type: 'button' }, on: { click: () => post('/__admin/clock', { advanceMs: ms }) } },
        label,
      ),
    );
  }
  buttons.append(
    freeze,
    el(
      'button',
      { attrs: { type: 'button' }, on: { click: () => post('/__admin/clock', { now: Date.now() }) } },
      'Now',
    ),
  );
  body.append(el('p', { class: 'clock-line' }, time, ' ', offset), buttons);
  return {
    root,
    settings(settings: ConsoleSettings) {
      frozen = settings.clock.frozen;
      freeze.textContent = frozen ? 'Resume' : 'Freeze';
      freeze.setAttribute('aria-pressed', String(frozen));
    },
    tick(serverNow: number) {
      time.textContent = `${new Date(serverNow).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
      const ahead = Math.round((serverNow - Date.now()) / 60_000);
      offset.textContent = frozen
        ? 'frozen'
        : ahead === 0
          ? 'wall time'
          : `${ahead > 0 ? '+' : ''}${ahead} min`;
    },
  };
}
