/** A child: an element, or text that is always inserted as text (never parsed as HTML). */
export type Child = Node | string | number | null | undefined | false;

/** Attributes set with `setAttribute`; event handlers go through `on`. */
export interface ElementOptions {
  class?: string;
  attrs?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/**
 * Builds an element. Strings become text nodes, so a request path like `/<img src=x onerror=...>`
 * shows as those characters; nothing in the console ever goes through `innerHTML`.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.class) node.className = options.class;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  for (const [type, handler] of Object.entries(options.on ?? {})) {
    node.addEventListener(type, handler as EventListener);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return node;
}

/** A titled panel with a body that scrolls on its own. */
export function panel(id: string, title: string, ...head: Child[]): { root: HTMLElement; body: HTMLElement } {
  const body = el('div', { class: 'panel-body' });
  const root = el(
    'section',
    { class: `panel panel-${id}`, attrs: { 'aria-labelledby': `${id}-title` } },
    el('header', { class: 'panel-head' }, el('h2', { attrs: { id: `${id}-title` } }, title), ...head),
    body,
  );
  return { root, body };
}

/** Puts `row` first in `list` (newest first) and drops rows past `max`. */
export function prepend(list: HTMLElement, row: HTMLElement, max = 200): void {
  list.prepend(row);
  while (list.childElementCount > max) list.lastElementChild?.remove();
}

/** `12:03:04.123` of an ISO time. */
export function timeOf(iso: string | null): string {
  return iso ? iso.slice(11, 23) : '';
}
