import type { ConsoleEnvelope, VerificationEvent } from '../../../events/types.js';
import { announce, post } from '../api.js';
import { el, panel } from '../dom.js';
import type { ConsoleMeta, View } from '../state.js';

interface Row {
  data: VerificationEvent;
  token: string | undefined;
  element: HTMLElement;
}

/** What a verification can answer right now. */
function stateOf(v: VerificationEvent, now: number): { state: string; label: string } {
  if (v.finishedAt === null) return { state: 'unfinished', label: 'unfinished: answers 423' };
  if (v.expiresAt !== null && Date.parse(v.expiresAt) < now)
    return { state: 'expired', label: 'expired: 410' };
  if (v.fetches >= v.maxFetches) return { state: 'used', label: 'fetched: next fetch 429' };
  return { state: 'ready', label: 'ready to fetch' };
}

/** Verifications, newest first, with a button per outcome, copyable tokens and Finish for unfinished ones. */
export function verificationsView(meta: ConsoleMeta): View {
  const create = outcomeButtons(meta);
  const { root, body } = panel('verifications', 'Verifications');
  const list = el('ol', { class: 'cards' });
  const empty = el('p', { class: 'empty' }, 'None yet. Create one above, or click an <svc-captcha> widget.');
  body.append(el('p', { class: 'hint' }, 'Create one of each outcome:'), create, list, empty);
  const rows = new Map<string, Row>();
  let now = Date.now();

  const render = (row: Row) => {
    const { state, element, children } = card(row, now);
    element.dataset.state = state;
    element.replaceChildren(...children);
  };

  return {
    root,
    event(envelope: ConsoleEnvelope) {
      if (envelope.type !== 'verification') return;
      const v = envelope.data;
      let row = rows.get(v.verificationId);
      if (!row) {
        const element = el('li', { class: 'card', attrs: { 'data-verification-id': v.verificationId } });
        row = { data: v, token: v.token, element };
        rows.set(v.verificationId, row);
        list.prepend(element);
        empty.hidden = true;
        while (rows.size > 200) {
          const oldest = list.lastElementChild as HTMLElement | null;
          rows.delete(oldest?.dataset.verificationId ?? '');
          oldest?.remove();
        }
      }
      row.data = v;
      row.token ??= v.token;
      render(row);
    },
    tick(serverNow: number) {
      now = serverNow;
      for (const row of rows.values()) {
        if (row.element.dataset.state !== stateOf(row.data, now).state) render(row);
      }
    },
    reset() {
      rows.clear();
      list.replaceChildren();
      empty.hidden = false;
    },
  };
}

/** One button per dev outcome, each creating a verification of it. */
function outcomeButtons(meta: ConsoleMeta): HTMLElement {
  const create = el('div', {
    class: 'buttons',
    attrs: { role: 'group', 'aria-label': 'Create a verification' },
  });
  for (const { name, description } of meta.outcomes) {
    create.append(
      el(
        'button',
        {
          class: `outcome outcome-${name}`,
          attrs: { type: 'button', title: description, 'data-outcome': name },
          on: {
            click: async () => {
              const created = (await post('/__admin/verifications', { outcome: name })) as
                | { verificationId: string }
                | undefined;
              if (created) announce(`Created a ${name} verification ${created.verificationId}`);
            },
          },
        },
        name,
      ),
    );
  }
  return create;
}

/** The card of a verification: its head, id line, token line and, while unfinished, Finish. */
function card(row: Row, now: number): { state: string; element: HTMLElement; children: Node[] } {
  const v = row.data;
  const { state, label } = stateOf(v, now);
  const left = Math.max(0, v.maxFetches - v.fetches);
  const children: Node[] = [
    el(
      'div',
      { class: 'card-head' },
      el('span', { class: `badge outcome-${v.outcome}` }, v.outcome),
      el('span', { class: `state state-${state}` }, label),
      el(
        'span',
        { class: 'fetches' },
        `${left} of ${v.maxFetches} fetch${v.maxFetches === 1 ? '' : 'es'} left`,
      ),
    ),
    el(
      'div',
      { class: 'card-line' },
      el('span', { class: 'label' }, 'id'),
      el('code', { class: 'id' }, v.verificationId),
      el('span', { class: 'score' }, `score ${v.score}`, v.passed ? '' : ', not passed'),
    ),
  ];
  if (row.token !== undefined) children.push(tokenLine(row.token, v.verificationId));
  if (state === 'unfinished') children.push(finishButton(v.verificationId));
  return { state, element: row.element, children };
}

/** The token, shown whole on hover, with a Copy button. */
function tokenLine(token: string, verificationId: string): HTMLElement {
  return el(
    'div',
    { class: 'card-line' },
    el('span', { class: 'label' }, 'token'),
    el('code', { class: 'token', attrs: { title: token } }, token),
    el(
      'button',
      {
        attrs: { type: 'button', 'aria-label': `Copy the token of ${verificationId}` },
        on: {
          click: async () => {
            try {
              await navigator.clipboard.writeText(token);
              announce('Token copied');
            } catch {
              announce('The browser refused the clipboard; select the token instead', 'error');
            }
          },
        },
      },
      'Copy',
    ),
  );
}

/** Finishes an unfinished verification (the widget's last step). */
function finishButton(verificationId: string): HTMLElement {
  return el(
    'button',
    {
      class: 'finish',
      attrs: { type: 'button' },
      on: {
        click: () => post(`/__admin/verifications/${encodeURIComponent(verificationId)}/finish`),
      },
    },
    'Finish',
  );
}
