import { ApiProvider } from './api/ApiContext';
import { AuthProvider, useAuth } from './auth/AuthContext';
import { SignInScreen } from './auth/SignInScreen';
import { AppShell } from './components/AppShell';
import { StatusProvider } from './status/StatusContext';

/** Signed out: the sign-in screen. Signed in: the shell with the routed screens. */
function Root() {
  const { session } = useAuth();
  if (!session) return <SignInScreen />;
  return (
    <ApiProvider>
      <AppShell email={session.email} />
    </ApiProvider>
  );
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
