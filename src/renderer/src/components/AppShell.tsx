import { Outlet, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/AuthContext';
import { useAnnounce } from '../status/StatusContext';
import { AppHeader } from './AppHeader';
import { MainNav } from './MainNav';
import { SkipLink } from './SkipLink';

/** Header, navigation and the current screen (the router's outlet). */
export function AppShell() {
  const { session } = useAuth();
  const router = useRouter();
  const mainRef = useRef<HTMLElement>(null);
  const announce = useAnnounce();

  // After sign-in and on every move to another screen (not on a change of its URL state), put
  // focus on the new screen's heading so keyboard and screen-reader users start there.
  useEffect(() => {
    const focusHeading = () => {
      const heading = mainRef.current?.querySelector<HTMLElement>('h1');
      (heading ?? mainRef.current)?.focus();
    };
    focusHeading();
    // onRendered: once the new screen is on the page.
    const stopFocus = router.subscribe('onRendered', (event) => {
      if (event.pathChanged) focusHeading();
    });
    // What the last screen announced ("Loaded 3 facilities.") is not about the next one: clear
    // it before the next screen renders, so its own announcements still come through.
    const stopClear = router.subscribe('onBeforeNavigate', (event) => {
      if (event.pathChanged) announce('');
    });
    return () => {
      stopFocus();
      stopClear();
    };
  }, [router, announce]);

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
