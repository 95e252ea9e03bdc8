import { Outlet, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/AuthContext';
import { AppHeader } from './AppHeader';
import { MainNav } from './MainNav';
import { SkipLink } from '../components/SkipLink';

/**
 * Header, navigation and the current screen (the router's outlet). The shell is the frame around
 * every screen: like the router, it composes the screens (the header asks about the Inventory
 * draft before a sign-out, the badge words the sync state), so it lives apart from components/,
 * which never import screens.
 */
export function AppShell() {
  const { session } = useAuth();
  const router = useRouter();
  const mainRef = useRef<HTMLElement>(null);

  // After sign-in and on every move to another screen (not on a change of its URL state), put
  // focus on the new screen's heading so keyboard and screen-reader users start there.
  useEffect(() => {
    const focusHeading = () => {
      const heading = mainRef.current?.querySelector<HTMLElement>('h1');
      (heading ?? mainRef.current)?.focus();
    };
    focusHeading();
    // onRendered: once the new screen is on the page.
    return router.subscribe('onRendered', (event) => {
      if (event.pathChanged) focusHeading();
    });
  }, [router]);

  return (
    <div className="app">
      <SkipLink target={mainRef} />
      <AppHeader email={session?.email ?? ''} />
      <div className="app-body">
        <MainNav />
        <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
