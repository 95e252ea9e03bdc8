/**
 * The pure parts of the Electron shell's security policy: origin checks, the navigation
 * allow-list, the Content-Security-Policy and the IPC sender check. Nothing here imports
 * Electron, so it is unit-tested in plain Node (test/electron/security.test.ts); the Electron
 * wiring lives in src/main/index.ts. See docs/electron.md for the checklist.
 */

/** The origin (`scheme://host[:port]`) of an http(s) URL, or null for anything else or garbage. */
export function httpOriginOf(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin;
}

/** True when `url` is an http(s) URL with exactly the origin `origin` (scheme, host and port). */
export function isSameOrigin(url: string | null | undefined, origin: string): boolean {
  const expected = httpOriginOf(origin);
  if (expected === null) return false;
  return httpOriginOf(url) === expected;
}

/**
 * The navigation allow-list: the window may only navigate (or be redirected) within the local
 * service's origin. Everything else (other hosts, other ports, file:, javascript:, data:,
 * custom schemes) is refused.
 */
export function isAllowedNavigation(targetUrl: string, serviceOrigin: string): boolean {
  return isSameOrigin(targetUrl, serviceOrigin);
}

/**
 * What to do with a link the page tries to open in a new window: every new window is denied,
 * and only https links (never http, file:, custom protocols...) are handed to the OS browser.
 * Returns the URL to pass to `shell.openExternal`, or null.
 */
export function externalUrlToOpen(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password) return null;
  return parsed.href;
}

/** The Content-Security-Policy directives the window's pages get. */
export const CSP_DIRECTIVES: Readonly<Record<string, string>> = Object.freeze({
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
});

/** The Content-Security-Policy header value. */
export const CONTENT_SECURITY_POLICY: string = Object.entries(CSP_DIRECTIVES)
  .map(([directive, value]) => `${directive} ${value}`)
  .join('; ');

type ResponseHeaders = Record<string, string | string[]>;

/**
 * The response headers with our CSP in place of any the response carried (header names are
 * case-insensitive, so every spelling of Content-Security-Policy is replaced), when the
 * response comes from the service origin; other responses are returned unchanged.
 */
export function withContentSecurityPolicy(
  responseUrl: string,
  headers: ResponseHeaders | undefined,
  serviceOrigin: string,
): ResponseHeaders | undefined {
  if (!isSameOrigin(responseUrl, serviceOrigin)) return headers;
  const next: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') next[name] = value;
  }
  next['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return next;
}

/**
 * The IPC sender check: only frames showing a page from the local service may call the
 * main process. `frameUrl` is `event.senderFrame?.url` (null when the frame is gone).
 */
export function isTrustedIpcSender(
  frameUrl: string | null | undefined,
  serviceOrigin: string,
): boolean {
  return isSameOrigin(frameUrl, serviceOrigin);
}

/** Throws unless the sender is trusted; used by every `ipcMain.handle`. */
export function assertTrustedIpcSender(
  channel: string,
  frameUrl: string | null | undefined,
  serviceOrigin: string,
): void {
  if (!isTrustedIpcSender(frameUrl, serviceOrigin)) {
    throw new Error(`IPC call to "${channel}" refused: the sender is not the app's own page`);
  }
}

/**
 * The URL the window loads for a service that announced `serviceUrl`: a service bound to an
 * unspecified address (0.0.0.0 or ::, when the user asked to listen on every interface) is
 * reached through loopback, so the window always talks to this machine.
 */
export function windowUrlFor(serviceUrl: string): string {
  const url = new URL(serviceUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin + '/';
}
