/**
 * The preload script of the desktop window. It runs sandboxed (so it is bundled as CommonJS,
 * see electron.vite.config.ts) with context isolation, and exposes exactly one narrow, typed
 * bridge: no Electron or Node API reaches the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { APP_INFO_CHANNEL, type AppInfo, type DesktopBridge } from '../shared/desktop-bridge';

const desktop: DesktopBridge = {
  getAppInfo: () => ipcRenderer.invoke(APP_INFO_CHANNEL) as Promise<AppInfo>,
};

contextBridge.exposeInMainWorld('desktop', desktop);
