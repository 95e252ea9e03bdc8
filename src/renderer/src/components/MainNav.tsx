import { ROUTES, type RouteId } from '../routing/routes';

/** Links between screens; the current one carries aria-current="page". */
export function MainNav({ current }: { current: RouteId }) {
  return (
    <nav aria-label="Main" className="main-nav">
      <ul>
        {ROUTES.map((route) => (
          <li key={route.id}>
            <a href={route.hash} aria-current={route.id === current ? 'page' : undefined}>
              {route.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
