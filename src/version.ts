declare const __SVC_VERSION__: string | undefined;

/** The package version, injected at build time. */
export const VERSION: string = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : '0.0.0-dev';
