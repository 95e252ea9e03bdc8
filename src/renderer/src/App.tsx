import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ApiProvider } from './api/ApiContext';
import { createQueryClient } from './api/queryClient';
import { AuthProvider, useAuth } from './auth/AuthContext';
import { SignInScreen } from './auth/SignInScreen';
import { createAppRouter } from './routing/router';
import { InventoryDraftProvider } from './screens/inventory/InventoryDraft';
import { StatusProvider } from './status/StatusContext';

/** The router outlives sessions: signing in again lands on the address the clerk was at. */
const router = createAppRouter();

/** Everything one session holds (cached server state, loaded rows) goes when it ends. */
function SignedIn() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => () => queryClient.clear(), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider>
        <InventoryDraftProvider>
          <RouterProvider router={router} />
        </InventoryDraftProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}

/** Signed out: the sign-in screen. Signed in: the shell with the routed screens. */
function Root() {
  const { session } = useAuth();
  if (!session) return <SignInScreen />;
  // A new sign-in (a new token) starts with an empty cache and draft.
  return <SignedIn key={session.token} />;
}

export function App() {
  return (
    <StatusProvider>
      <AuthProvider>
        <Root />
      </AuthProvider>
    </StatusProvider>
  );
}
