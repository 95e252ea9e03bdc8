/**
 * The screens the main navigation lists, in order. Apart from the router, so the navigation (part
 * of the root route's shell) does not import the router that imports the shell.
 */
export const NAV_ITEMS = [
  { to: '/facilities', label: 'Facilities' },
  { to: '/inventory', label: 'Inventory' },
  { to: '/orders', label: 'Orders' },
  { to: '/edi/inbox', label: 'EDI inbox' },
  { to: '/edi/documents', label: 'Retailer documents' },
  { to: '/transactions', label: 'Transactions' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/billing', label: 'Billing' },
  { to: '/chargebacks', label: 'Chargebacks' },
  { to: '/pos', label: 'POS' },
  { to: '/sync', label: 'Sync' },
  { to: '/settings', label: 'Settings' },
] as const;
