import { Link } from '@tanstack/react-router';
import { keepTabInside } from '../../components/keepTabInside';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Transaction } from '../../../../shared/transactions';
import { formatShortTime } from '../../format/time';
import type { NameLookup } from './TransactionsTable';
import { statusLabel } from './transactionLabels';

const json = (value: unknown) => (value === null ? 'None' : JSON.stringify(value, null, 2));

/** One transaction in full: ids, timing, the request sent and the response got. */
export function TransactionDrawer({
  transaction,
  names,
  onClose,
}: {
  transaction: Transaction;
  names: NameLookup;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    // A modal dialog keeps the focus inside and closes on Escape (the `close` event below).
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const t = transaction;
  const facts: [string, ReactNode][] = [
    ['Action', t.action_type],
    ['Status', statusLabel(t.execution_status)],
    ['Created', formatShortTime(t.created_at)],
    ['Updated', formatShortTime(t.updated_at)],
    ['Duration', `${t.duration_ms} ms`],
    ['Facility', names.facility(t.facility_id)],
    ['Brand', names.brand(t.brand_id)],
    ['Retailer', names.retailer(t.retailer_id)],
    ['Transaction ID', t.transaction_id],
    [
      'Order',
      t.order_id ? (
        <Link to="/orders/$orderId" params={{ orderId: t.order_id }}>
          {t.picksheet_code ?? t.order_id}
        </Link>
      ) : (
        '—'
      ),
    ],
    ['PO number', t.po_number || '—'],
    ['Order ID', t.order_id ?? '—'],
    ['Correlation ID', t.correlation_id ?? '—'],
    ['Error', t.error_message ?? '—'],
    // The codes an integrator searches logs and the interface for.
    ['Codes', `${t.action_type_label} · ${t.execution_status}`],
  ];
  return (
    <dialog
      ref={dialog}
      onKeyDown={keepTabInside}
      className="transaction-drawer"
      aria-labelledby="transaction-drawer-heading"
      onClose={onClose}
    >
      <div className="screen-header">
        <h2 id="transaction-drawer-heading">Transaction details</h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="transaction-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>Request</h3>
      <p>
        <code>
          {t.request_method} {t.request_url}
        </code>
      </p>
      <pre role="region" tabIndex={0} aria-label="Request payload">
        {json(t.request_payload)}
      </pre>
      <h3>Response{t.response_status === null ? '' : ` (HTTP ${t.response_status})`}</h3>
      <pre role="region" tabIndex={0} aria-label="Response body">
        {json(t.response_body)}
      </pre>
    </dialog>
  );
}
