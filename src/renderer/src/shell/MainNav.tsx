import { Link } from '@tanstack/react-router';
import { NAV_ITEMS } from '../routing/navItems';

/** Links between screens; the router marks the current one with aria-current="page". */
export function MainNav() {
  return (
    <nav aria-label="Main" className="main-nav">
      <ul>
        {NAV_ITEMS.map((item) => (
          <li key={item.to}>
            <Link to={item.to}>{item.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
