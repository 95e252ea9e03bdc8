import { useEffect, useRef } from 'react';
import type { Transaction } from '../../../../shared/transactions';
import { formatShortTime } from '../orders/orderFormat';
import type { NameLookup } from './TransactionsTable';

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
  const facts: [string, string][] = [
    ['Action', `${t.action_type} (${t.action_type_label})`],
    ['Status', t.execution_status],
    ['Created', formatShortTime(t.created_at)],
    ['Updated', formatShortTime(t.updated_at)],
    ['Duration', `${t.duration_ms} ms`],
    ['Facility', names.facility(t.facility_id)],
    ['Brand', names.brand(t.brand_id)],
    ['Retailer', names.retailer(t.retailer_id)],
    ['Transaction ID', t.transaction_id],
    ['Order ID', t.order_id ?? '—'],
    ['Correlation ID', t.correlation_id ?? '—'],
    ['Error', t.error_message ?? '—'],
  ];
  return (
    <dialog
      ref={dialog}
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
      <pre aria-label="Request payload">{json(t.request_payload)}</pre>
      <h3>Response{t.response_status === null ? '' : ` (HTTP ${t.response_status})`}</h3>
      <pre aria-label="Response body">{json(t.response_body)}</pre>
    </dialog>
  );
}
