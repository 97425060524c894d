/**
 * Stand-in for the real bot-check widget, served by a dev server at `/__widget.js`:
 *
 *   <script src="http://127.0.0.1:4010/__widget.js"></script>
 *   <form ...><svc-captcha outcome="pass"></svc-captcha>...</form>
 *
 * Clicked, it creates a verification of that outcome on the server the script came from, puts
 * the token into the hidden input `svc-verification-token` of its form (creating it when absent)
 * and dispatches `captchaSolved` with the token as `detail`, as the real widget does.
 */

/** The hidden input the real widget fills. */
const TOKEN_FIELD = 'svc-verification-token';

// Only readable while the script itself runs, so read now.
const script = document.currentScript as HTMLScriptElement | null;
const SERVER = script?.src ? new URL(script.src).origin : location.origin;

const STYLE = `
:host { display: inline-block; font: 14px/1.3 system-ui, sans-serif; }
button { display: flex; align-items: center; gap: 10px; min-width: 260px; padding: 10px 14px;
  border: 1px solid #b8c0cc; border-radius: 8px; background: #f9fafb; color: #1c2330; font: inherit; cursor: pointer; text-align: left; }
button:focus-visible { outline: 3px solid #ffb020; outline-offset: 2px; }
button[disabled] { cursor: default; }
.box { width: 20px; height: 20px; border: 2px solid #5b6474; border-radius: 4px; flex: none; display: grid; place-items: center; }
:host([data-state='solved']) .box { border-color: #16794c; background: #16794c; color: #fff; }
:host([data-state='error']) .box { border-color: #b42318; }
small { display: block; color: #5b6474; font-size: 11px; }
`;

class SvcCaptcha extends HTMLElement {
  private readonly button: HTMLButtonElement;
  private readonly label: HTMLSpanElement;
  private readonly note: HTMLElement;
  private readonly box: HTMLSpanElement;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.box = document.createElement('span');
    this.box.className = 'box';
    this.box.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    this.label = document.createElement('span');
    this.note = document.createElement('small');
    text.append(this.label, this.note);
    this.button.append(this.box, text);
    this.button.addEventListener('click', () => void this.solve());
    shadow.append(style, this.button);
  }

  /** The outcome to produce; default `pass`. */
  get outcome(): string {
    return this.getAttribute('outcome') ?? 'pass';
  }

  connectedCallback(): void {
    if (!this.dataset.state) this.show('idle', "I'm not a robot", `dev stand-in, outcome ${this.outcome}`);
  }

  private show(state: string, label: string, note: string): void {
    this.dataset.state = state;
    this.label.textContent = label;
    this.note.textContent = note;
    this.box.textContent = state === 'solved' ? '\u2713' : '';
  }

  /** The hidden token input of the enclosing form, created when absent; none outside a form. */
  private tokenInput(): HTMLInputElement | undefined {
    const form = this.closest('form');
    if (!form) return undefined;
    let input = form.querySelector<HTMLInputElement>(`input[name="${TOKEN_FIELD}"]`);
    if (!input) {
      input = document.createElement('input');
      input.type = 'hidden';
      input.name = TOKEN_FIELD;
      form.append(input);
    }
    return input;
  }

  private async solve(): Promise<void> {
    if (this.dataset.state === 'working') return;
    const outcome = this.outcome;
    this.button.disabled = true;
    this.show('working', 'Verifying...', `dev stand-in, outcome ${outcome}`);
    try {
      const res = await fetch(`${SERVER}/__widget/verifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome }),
      });
      const body = (await res.json().catch(() => ({}))) as { token?: string; detail?: string };
      if (!res.ok || typeof body.token !== 'string')
        throw new Error(body.detail ?? `dev server answered ${res.status}`);
      const input = this.tokenInput();
      if (input) input.value = body.token;
      this.show('solved', 'Verified', `dev stand-in, outcome ${outcome}`);
      this.dispatchEvent(
        new CustomEvent('captchaSolved', { detail: body.token, bubbles: true, composed: true }),
      );
    } catch (error) {
      this.show('error', 'Verification failed, click to retry', `${(error as Error).message} (${SERVER})`);
      this.dispatchEvent(
        new CustomEvent('captchaError', { detail: String(error), bubbles: true, composed: true }),
      );
    } finally {
      this.button.disabled = false;
    }
  }
}

if (!customElements.get('svc-captcha')) customElements.define('svc-captcha', SvcCaptcha);
