import { Link } from '@tanstack/react-router';

/** Summary and Prices: two addresses under Billing, shown as tabs. */
export function BillingTabs({ current }: { current: 'summary' | 'prices' }) {
  return (
    <nav className="billing-tabs" aria-label="Billing">
      <Link
        to="/billing"
        className={current === 'summary' ? 'billing-tab active' : 'billing-tab'}
        aria-current={current === 'summary' ? 'page' : undefined}
        activeOptions={{ exact: true, includeSearch: false }}
      >
        Summary
      </Link>
      <Link
        to="/billing/prices"
        className={current === 'prices' ? 'billing-tab active' : 'billing-tab'}
        aria-current={current === 'prices' ? 'page' : undefined}
        activeOptions={{ exact: true, includeSearch: false }}
      >
        Prices
      </Link>
    </nav>
  );
}
