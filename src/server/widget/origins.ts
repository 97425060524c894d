/**
 * Whether `origin` is a page served from this machine over plain HTTP: `http://localhost`,
 * `http://127.0.0.1` or `http://[::1]`, any port. Only those may use the widget endpoint.
 */
export function isLoopbackOrigin(origin: string): boolean {
  return /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/.test(origin);
}
