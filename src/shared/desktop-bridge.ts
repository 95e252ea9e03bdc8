/**
 * The narrow bridge the desktop window gets from the preload script (src/preload/index.ts),
 * as `window.desktop`. It is optional: the same UI also runs in a plain browser against the
 * headless service, where `window.desktop` is undefined.
 */

/** The IPC channel behind `getAppInfo` (handled in src/main/index.ts). */
export const APP_INFO_CHANNEL = 'app:info';

export interface AppInfo {
  /** The app's version (package.json). */
  version: string;
  /** Node's `process.platform` of the workstation: 'win32', 'darwin', 'linux'... */
  platform: string;
}

export interface DesktopBridge {
  getAppInfo(): Promise<AppInfo>;
}

declare global {
  interface Window {
    /** Present only inside the Electron window. */
    readonly desktop?: DesktopBridge;
  }
}
