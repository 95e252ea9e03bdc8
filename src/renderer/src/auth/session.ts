import { z } from 'zod';
import type { TokenResponse } from '../../../shared/auth';

/**
 * The signed-in session. It is kept in sessionStorage so a reload (F5) keeps the clerk signed in:
 * sessionStorage belongs to one tab or window, is not shared with other tabs, and is gone when the
 * window closes. Never in localStorage or cookies.
 */
export interface Session {
  token: string;
  email: string;
  /** Epoch milliseconds after which the token is no longer valid. */
  expiresAt: number;
}

export const SESSION_EXPIRED_NOTICE = 'Your session has expired. Please sign in again.';

/** The sessionStorage key the session is kept under. */
export const SESSION_STORAGE_KEY = 'fulfillment.session';

const storedSessionSchema = z.object({
  token: z.string().min(1),
  email: z.string(),
  expiresAt: z.number(),
});

export function sessionFromToken(email: string, token: TokenResponse, now = Date.now()): Session {
  return { token: token.access_token, email, expiresAt: now + token.expires_in * 1000 };
}

/** Keeps `session` for the next load of this tab, or forgets it (null). */
export function storeSession(storage: Storage | undefined, session: Session | null): void {
  try {
    if (session) storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    else storage?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage can be full or disabled; the session then lasts until the page is reloaded.
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The session this tab kept, unless it is missing, malformed or expired. */
export function restoreSession(storage: Storage | undefined, now = Date.now()): Session | null {
  let text: string | null = null;
  try {
    text = storage?.getItem(SESSION_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (text === null) return null;
  const parsed = storedSessionSchema.safeParse(parseJson(text));
  if (!parsed.success || parsed.data.expiresAt <= now) {
    storeSession(storage, null);
    return null;
  }
  return parsed.data;
}

/** sessionStorage, or undefined where the page may not use it. */
export function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Calls `onExpire` once `expiresAt` has passed; returns a cancel function. */
export function scheduleExpiry(expiresAt: number, onExpire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const remaining = expiresAt - Date.now();
    if (remaining <= 0) onExpire();
    else timer = setTimeout(check, Math.min(remaining, MAX_TIMEOUT_MS));
  };
  check();
  return () => clearTimeout(timer);
}
