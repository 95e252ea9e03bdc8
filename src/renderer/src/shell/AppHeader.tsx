import { useAuth } from '../auth/AuthContext';
import { discardQuestion, useInventoryDraft } from '../screens/inventory/InventoryDraft';
import { DiskFullBanner } from '../components/DiskFullBanner';
import { DocumentsBadge } from './DocumentsBadge';
import { SyncBadge } from './SyncBadge';

export function AppHeader({ email }: { email: string }) {
  const { signOut } = useAuth();
  const { unsentRowCount } = useInventoryDraft();
  const confirmSignOut = () => {
    if (unsentRowCount > 0 && !window.confirm(discardQuestion(unsentRowCount, 'Sign out'))) return;
    signOut();
  };
  return (
    <header className="app-header">
      <p className="product-name">Fulfillment Integration</p>
      <DiskFullBanner />
      <div className="account">
        <DocumentsBadge />
        <SyncBadge />
        <span className="account-email" title="Signed in as">
          {email}
        </span>
        <button type="button" className="button" onClick={confirmSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
