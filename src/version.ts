declare const __TOOLGATE_VERSION__: string | undefined;

/** toolgate's version: injected by the build from package.json; `0.0.0-dev` when run from source. */
export const VERSION: string = typeof __TOOLGATE_VERSION__ === 'string' ? __TOOLGATE_VERSION__ : '0.0.0-dev';
