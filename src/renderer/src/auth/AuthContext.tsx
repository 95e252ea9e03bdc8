import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { TokenRequest } from '../../../shared/auth';
import { requestToken } from '../api/client';
import { useAnnounce } from '../status/StatusContext';
import {
  SESSION_EXPIRED_NOTICE,
  restoreSession,
  scheduleExpiry,
  sessionFromToken,
  storeSession,
  tabStorage,
  type Session,
} from './session';

export interface AuthState {
  session: Session | null;
  /** Shown on the sign-in screen, e.g. after the session expired. */
  notice: string | null;
  /** Throws `ApiError` when the service refuses the credentials. */
  signIn: (credentials: TokenRequest) => Promise<void>;
  signOut: () => void;
  /** Ends the session holding `token` (if it is still the current one) with the expiry notice. */
  expireSession: (token: string) => void;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  // A reload of this tab picks up the session it had (see session.ts for why sessionStorage).
  const [session, setSessionState] = useState<Session | null>(() => restoreSession(tabStorage()));
  const [notice, setNotice] = useState<string | null>(null);
  const announce = useAnnounce();
  // The current token, readable synchronously by callbacks that outlive a render.
  const currentToken = useRef<string | null>(session?.token ?? null);

  const setSession = useCallback((next: Session | null) => {
    currentToken.current = next?.token ?? null;
    storeSession(tabStorage(), next);
    setSessionState(next);
  }, []);

  const signIn = useCallback(
    async (credentials: TokenRequest) => {
      const token = await requestToken(credentials);
      setNotice(null);
      setSession(sessionFromToken(credentials.email, token));
      announce(`Signed in as ${credentials.email}.`);
    },
    [announce, setSession],
  );

  const signOut = useCallback(() => {
    setNotice(null);
    setSession(null);
    announce('Signed out.');
  }, [announce, setSession]);

  const expireSession = useCallback(
    (token: string) => {
      // A late 401 from an earlier session must not end the current one.
      if (currentToken.current !== token) return;
      setSession(null);
      setNotice(SESSION_EXPIRED_NOTICE);
    },
    [setSession],
  );

  const token = session?.token;
  const expiresAt = session?.expiresAt;
  useEffect(() => {
    if (token === undefined || expiresAt === undefined) return;
    return scheduleExpiry(expiresAt, () => expireSession(token));
  }, [token, expiresAt, expireSession]);

  const value = useMemo(
    () => ({ session, notice, signIn, signOut, expireSession }),
    [session, notice, signIn, signOut, expireSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>.');
  return state;
}
