import type { TokenResponse } from '../../../shared/auth';

/** The signed-in session. Lives in React state only: never in Web Storage or cookies. */
export interface Session {
  token: string;
  email: string;
  /** Epoch milliseconds after which the token is no longer valid. */
  expiresAt: number;
}

export const SESSION_EXPIRED_NOTICE = 'Your session has expired. Please sign in again.';

export function sessionFromToken(email: string, token: TokenResponse, now = Date.now()): Session {
  return { token: token.access_token, email, expiresAt: now + token.expires_in * 1000 };
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
