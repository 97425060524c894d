import type { Route } from './router.js';

/** A slice of the reference server: its routes and its clean-up. */
export interface ServerModule {
  routes: Route[];
  /** Stops timers and outgoing work when the server closes. */
  close?(): void;
}
