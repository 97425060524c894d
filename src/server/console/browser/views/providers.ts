import type { ConsoleSettings } from '../../../events/types.js';
import { post } from '../api.js';
import { el, panel } from '../dom.js';
import type { ConsoleMeta, View } from '../state.js';

const MODES = ['sync', 'async', 'unavailable'];

/** Registry modes: each provider answers now, later (202) or not at all (SOURCE_UNAVAILABLE). */
export function providersView(meta: ConsoleMeta): View {
  const { root, body } = panel('providers', 'Provider modes');
  const selects = new Map<string, HTMLSelectElement>();
  const grid = el('div', { class: 'fields' });
  for (const provider of meta.providers) {
    const id = `provider-${provider}`;
    const select = el(
      'select',
      {
        attrs: { id },
        on: {
          change: () => post(`/__admin/providers/${encodeURIComponent(provider)}`, { mode: select.value }),
        },
      },
      ...MODES.map((mode) => el('option', { attrs: { value: mode } }, mode)),
    );
    selects.set(provider, select);
    grid.append(el('label', { attrs: { for: id } }, provider), select);
  }
  body.append(grid);
  return {
    root,
    settings(settings: ConsoleSettings) {
      for (const [provider, select] of selects) select.value = settings.providers[provider] ?? 'sync';
    },
  };
}
