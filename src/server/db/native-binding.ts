/**
 * Which better-sqlite3 native module the service loads. In development `npm start` builds a copy
 * for Electron's ABI and names it in BETTER_SQLITE3_BINDING (scripts/start.mjs). An installed app
 * has its own rebuilt module and must never load native code named by an environment variable,
 * so the Electron main process tells the service it is packaged and drops the variable.
 * No imports: the Electron main bundle uses this too.
 */

/** Set to `1` by the Electron main process for the service it starts from a packaged app. */
export const APP_PACKAGED_ENV = 'FULFILLMENT_APP_PACKAGED';
export const SQLITE_BINDING_ENV = 'BETTER_SQLITE3_BINDING';

/** The `nativeBinding` option for better-sqlite3, or undefined for the module in node_modules. */
export function sqliteNativeBinding(env: NodeJS.ProcessEnv): string | undefined {
  if (env[APP_PACKAGED_ENV] === '1') return undefined;
  const binding = env[SQLITE_BINDING_ENV];
  return binding ? binding : undefined;
}

/** The environment the Electron main process gives the service's utility process. */
export function serviceEnvironment(env: NodeJS.ProcessEnv, isPackaged: boolean): NodeJS.ProcessEnv {
  const serviceEnv = { ...env };
  delete serviceEnv[APP_PACKAGED_ENV];
  if (isPackaged) {
    delete serviceEnv[SQLITE_BINDING_ENV];
    serviceEnv[APP_PACKAGED_ENV] = '1';
  }
  return serviceEnv;
}
