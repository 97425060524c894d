/** Thrown by an `onEvent` handler to answer the sender with `status` (e.g. 502 when a forward failed). */
export class WebhookRejection extends Error {
  override name = 'WebhookRejection';

  constructor(
    /** The HTTP status answered, 4xx or 5xx. */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
