import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { createApiClient, type ApiClient } from './client';

const ApiContext = createContext<ApiClient | null>(null);

/** Provides a client bound to the signed-in session's token. Render only while signed in. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const { session, expireSession } = useAuth();
  const token = session?.token;
  const client = useMemo(
    () => (token ? createApiClient({ token, onUnauthorized: () => expireSession(token) }) : null),
    [token, expireSession],
  );
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi must be used inside <ApiProvider> while signed in.');
  return client;
}
