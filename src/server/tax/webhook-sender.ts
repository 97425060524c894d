import type { ServerState } from '../state.js';

/** Delivers webhook events to the endpoints registered with `POST /__admin/webhook-endpoints`. */
export class WebhookSender {
  endpoints: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly state: ServerState) {
    state.onReset(() => {
      this.endpoints = [];
    });
  }

  /** Sends `payload` to every endpoint: POST, JSON, up to 3 attempts. */
  send(payload: Record<string, unknown>): void {
    for (const url of this.endpoints) {
      const delivery = this.deliver(url, JSON.stringify(payload)).finally(() =>
        this.inFlight.delete(delivery),
      );
      this.inFlight.add(delivery);
    }
  }

  private async deliver(url: string, body: string): Promise<void> {
    for (let attempt = 1; attempt <= 3 && !this.closed; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'svc-reference-server' },
          body,
          signal: AbortSignal.timeout(5000),
          redirect: 'manual',
        });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) {
          this.state.stats.webhooksSent += 1;
          return;
        }
      } catch {
        // Retried below; a listener that is not up yet gets another chance.
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
    this.state.stats.webhooksFailed += 1;
  }

  /** Resolves when every delivery started so far has ended. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  close(): void {
    this.closed = true;
  }
}
