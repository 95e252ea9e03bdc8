import { useAuth } from '../auth/AuthContext';

export function AppHeader({ email }: { email: string }) {
  const { signOut } = useAuth();
  return (
    <header className="app-header">
      <p className="product-name">Fulfillment Integration</p>
      <div className="account">
        <span className="account-email" title="Signed in as">
          {email}
        </span>
        <button type="button" className="button" onClick={signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
