import { useEffect, useRef } from 'react';
import { useHashRoute } from '../routing/useHashRoute';
import { ScreenForRoute } from '../screens/ScreenForRoute';
import { AppHeader } from './AppHeader';
import { MainNav } from './MainNav';
import { SkipLink } from './SkipLink';

/** Header, navigation and the current screen. */
export function AppShell({ email }: { email: string }) {
  const route = useHashRoute();
  const mainRef = useRef<HTMLElement>(null);

  // After sign-in and on every navigation, put focus on the new screen's heading so
  // keyboard and screen-reader users start there instead of at the top of the page.
  useEffect(() => {
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    (heading ?? mainRef.current)?.focus();
  }, [route.id]);

  return (
    <div className="app">
      <SkipLink target={mainRef} />
      <AppHeader email={email} />
      <div className="app-body">
        <MainNav current={route.id} />
        <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
          <ScreenForRoute route={route.id} />
        </main>
      </div>
    </div>
  );
}
