/**
 * Electron main process: starts the local service in a utilityProcess (so the window never
 * waits on the database), then opens one locked-down window that loads the UI from that
 * service (same origin, no CORS, no file://). The security policy follows Electron's
 * security checklist; its pure parts are in ./security and docs/electron.md maps each item.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  safeStorage,
  session,
  shell,
  utilityProcess,
  type UtilityProcess,
  type WebContents,
} from 'electron';
import { APP_INFO_CHANNEL, type AppInfo } from '../shared/desktop-bridge';
import {
  assertTrustedIpcSender,
  externalUrlToOpen,
  httpOriginOf,
  isAllowedNavigation,
  withContentSecurityPolicy,
  windowUrlFor,
} from './security';
import { loadOrCreateDesktopKey } from './desktop-secrets';
import { serviceEnvironment } from '../server/db/native-binding';
import type { ParentToServiceMessage, ServiceToParentMessage } from '../server/http/utility-entry';

const PRODUCT_NAME = 'Fulfillment Integration';
/** How long the service may take to open the database (and seed the demo) before we give up. */
const SERVICE_START_TIMEOUT_MS = 120_000;
/** How long the service may take to close cleanly on quit before it is killed. */
const SERVICE_STOP_TIMEOUT_MS = 5_000;

const outMainDir = dirname(fileURLToPath(import.meta.url));
/** The service bundle (electron.vite.config.ts: src/server/http/utility-entry.ts). */
const serviceEntry = join(outMainDir, 'service.js');
/** Sandboxed preloads must be CommonJS; electron.vite.config.ts emits out/preload/index.cjs. */
const preloadScript = join(outMainDir, '../preload/index.cjs');

interface RunningServiceProcess {
  child: UtilityProcess;
  url: string;
  exited: boolean;
}

let service: RunningServiceProcess | null = null;
/** The origin every navigation, response header rewrite and IPC check is measured against. */
let serviceOrigin: string | null = null;
let mainWindow: BrowserWindow | null = null;
let quitting = false;
let readyToQuit = false;

/** Service flags given to the desktop app itself (`electron . --port 8787 --data-dir X`). */
function desktopFlags(): {
  host?: string;
  port?: string;
  dataDir?: string;
  seed?: string;
  allowedHosts: string[];
} {
  // strict: false, because Electron/Chromium switches (and test harness flags) share argv.
  const { values } = parseArgs({
    args: process.argv.slice(1),
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      seed: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
    },
    strict: false,
    allowPositionals: true,
  });
  const str = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : undefined;
  return {
    host: str(values.host),
    port: str(values.port),
    dataDir: str(values['data-dir']),
    seed: str(values.seed),
    allowedHosts: ((values['allowed-host'] ?? []) as unknown[]).filter(
      (name): name is string => typeof name === 'string' && name !== '',
    ),
  };
}

function isEmptyOrMissingDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return !existsSync(dir);
  }
}

function serviceArgs(): { args: string[]; dataDir: string } {
  const flags = desktopFlags();
  // The OS's per-user app-data folder unless the user points elsewhere.
  const dataDir = flags.dataDir ? resolve(flags.dataDir) : join(app.getPath('userData'), 'data');
  const args = [
    '--host',
    flags.host ?? '127.0.0.1',
    '--port',
    flags.port ?? '0',
    '--data-dir',
    dataDir,
  ];
  // DESIGN.md: a new user sees a working app at once, so an empty data dir gets the demo.
  const seed = flags.seed ?? (isEmptyOrMissingDir(dataDir) ? 'demo' : null);
  if (seed) args.push('--seed', seed);
  for (const name of flags.allowedHosts) args.push('--allowed-host', name);
  return { args, dataDir };
}

function startServiceProcess(
  args: string[],
  secretsKey: Buffer | null,
): Promise<RunningServiceProcess> {
  return new Promise((resolveStart, rejectStart) => {
    // In development BETTER_SQLITE3_BINDING (set by scripts/start.mjs to a better-sqlite3 build
    // for Electron's ABI) reaches the service's database layer; a packaged app drops it.
    const child = utilityProcess.fork(serviceEntry, args, {
      serviceName: `${PRODUCT_NAME} service`,
      stdio: 'inherit',
      env: serviceEnvironment(process.env, app.isPackaged),
    });
    const running: RunningServiceProcess = { child, url: '', exited: false };
    // The key goes over the parent port, never on the command line or in the environment.
    const key: ParentToServiceMessage = {
      type: 'secrets-key',
      key: secretsKey ? secretsKey.toString('base64') : null,
    };
    child.postMessage(key);
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        if (!running.exited) child.kill();
        rejectStart(error);
      } else {
        resolveStart(running);
      }
    };
    const timer = setTimeout(
      () =>
        settle(new Error(`the service did not start within ${SERVICE_START_TIMEOUT_MS / 1000}s`)),
      SERVICE_START_TIMEOUT_MS,
    );
    child.on('message', (message: ServiceToParentMessage | null) => {
      if (message?.type === 'ready' && httpOriginOf(message.url) !== null) {
        running.url = message.url;
        settle(null);
      } else if (message?.type === 'error') {
        settle(new Error(message.message));
      }
    });
    child.once('exit', (code) => {
      running.exited = true;
      settle(new Error(`the service exited during start-up (exit code ${code})`));
      if (!quitting && running.url) {
        // It died after start-up: nothing in the window can work any more.
        dialog.showErrorBox(
          PRODUCT_NAME,
          `The local service stopped unexpectedly (exit code ${code}).`,
        );
        app.exit(1);
      }
    });
  });
}

/** A browser that fails to open is reported, never an unhandled rejection that ends the app. */
function openInBrowser(url: string): void {
  shell.openExternal(url).catch((error: unknown) => {
    console.error(
      `could not open ${url}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
}

/** Asks the service to close (requests finish, database closes); kills it after a bound. */
function stopServiceProcess(running: RunningServiceProcess): Promise<void> {
  if (running.exited) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => {
      console.error(
        `the service did not stop within ${SERVICE_STOP_TIMEOUT_MS / 1000}s; killing it`,
      );
      running.child.kill();
      resolveStop();
    }, SERVICE_STOP_TIMEOUT_MS);
    running.child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    const shutdown: ParentToServiceMessage = { type: 'shutdown' };
    running.child.postMessage(shutdown);
  });
}

/** Guards applied to every web contents the app ever creates (windows, frames, devtools). */
function lockDownWebContents(contents: WebContents): void {
  // No <webview>: nothing in the app needs one, so none may be attached.
  contents.on('will-attach-webview', (event) => event.preventDefault());

  // No new windows; https links go to the user's browser, everything else is dropped.
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrlToOpen(url);
    if (external) openInBrowser(external);
    return { action: 'deny' };
  });

  // Navigation stays on the service's origin.
  contents.on('will-navigate', (event) => {
    if (serviceOrigin && isAllowedNavigation(event.url, serviceOrigin)) return;
    event.preventDefault();
    const external = externalUrlToOpen(event.url);
    if (external) openInBrowser(external);
  });
  contents.on('will-redirect', (event) => {
    if (serviceOrigin && isAllowedNavigation(event.url, serviceOrigin)) return;
    event.preventDefault();
  });
}

function lockDownSession(): void {
  const ses = session.defaultSession;
  // The app needs no camera, notifications, geolocation, ...: every request is refused.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  // A Content-Security-Policy on everything the service sends to the window.
  ses.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = serviceOrigin
      ? withContentSecurityPolicy(details.url, details.responseHeaders, serviceOrigin)
      : details.responseHeaders;
    callback({ responseHeaders });
  });
}

function registerIpc(): void {
  ipcMain.handle(APP_INFO_CHANNEL, (event): AppInfo => {
    assertTrustedIpcSender(APP_INFO_CHANNEL, event.senderFrame?.url, serviceOrigin ?? '');
    return { version: app.getVersion(), platform: process.platform };
  });
}

async function createWindow(url: string): Promise<void> {
  const window = new BrowserWindow({
    title: PRODUCT_NAME,
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    webPreferences: {
      preload: preloadScript,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    },
  });
  mainWindow = window;
  // The UI asks before unsent inventory rows are discarded (beforeunload). Electron shows no
  // dialog for that by itself and silently keeps the page; ask here, and let it go on "Discard".
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'question',
      buttons: ['Discard and leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      title: PRODUCT_NAME,
      message: 'Loaded inventory rows have not been sent.',
      detail: 'Leave and discard them?',
    });
    if (choice === 0) event.preventDefault(); // ignores the page's beforeunload
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  await window.loadURL(url);
}

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function fatal(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`${PRODUCT_NAME} could not start: ${message}`);
  dialog.showErrorBox(PRODUCT_NAME, `The app could not start:\n\n${message}`);
  quitting = true;
  if (service && !service.exited) service.child.kill();
  app.exit(1);
}

async function start(): Promise<void> {
  lockDownSession();
  registerIpc();
  // After serviceArgs: an empty data dir gets the demo, and the key file would make it non-empty.
  const { args, dataDir } = serviceArgs();
  const secrets = loadOrCreateDesktopKey(dataDir, safeStorage);
  if (secrets.notice) console.error(secrets.notice);
  service = await startServiceProcess(args, secrets.key);
  const url = windowUrlFor(service.url);
  serviceOrigin = new URL(url).origin;
  console.log(`listening on ${service.url}`);
  await createWindow(url);
}

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the data dir: it focuses its window (below), this one leaves.
  app.quit();
} else {
  // Every renderer sandboxed, whatever a BrowserWindow asks for.
  app.enableSandbox();

  app.on('second-instance', () => focusMainWindow());
  app.on('web-contents-created', (_event, contents) => lockDownWebContents(contents));

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && service && serviceOrigin) {
      createWindow(windowUrlFor(service.url)).catch(fatal);
    }
  });

  // Close the service cleanly (bounded) before the app goes.
  app.on('before-quit', (event) => {
    if (readyToQuit || !service || service.exited) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    void stopServiceProcess(service).finally(() => {
      readyToQuit = true;
      app.quit();
    });
  });

  // Ctrl+C in the terminal (npm start) or a service manager's SIGTERM: the same clean quit.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app.whenReady().then(start).catch(fatal);
}
