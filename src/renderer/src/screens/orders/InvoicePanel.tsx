import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { InvoiceOptions } from '../../../../shared/edi-documents';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { invoiceOrder } from '../../api/ediDocuments';
import { invalidateOrders } from '../../api/orderKeys';
import { useAnnounce } from '../../status/StatusContext';
import { acknowledgeOutcome } from './acknowledgeOutcome';

/**
 * The Invoice action of a shipped order (issue 16, item 6): an 810 at the PO's prices to each
 * connection that takes them. Offered only where the service would send one now; otherwise it
 * says why. A refusal (lines without a price, named) shows beside the button; what it says after
 * sending is each 810's stored status, so "sent" appears only once the transport took it.
 */
export function InvoicePanel({ orderId, options }: { orderId: string; options: InvoiceOptions }) {
  const api = useApi();
  const announce = useAnnounce();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);

  const invoice = async () => {
    setBusy(true);
    setRefusal(null);
    setOutcome(null);
    try {
      const answer = await invoiceOrder(api, orderId);
      const text = acknowledgeOutcome(answer.message, answer.documents);
      setOutcome(text);
      announce(text);
    } catch (error) {
      setRefusal(describeError(error));
    } finally {
      setBusy(false);
      await invalidateOrders(queryClient).catch(() => undefined);
      // The button is gone once an invoice stands: the focus goes to what happened.
      outcomeRef.current?.focus();
    }
  };

  return (
    <section className="panel" aria-labelledby="invoice-heading">
      <h2 id="invoice-heading">Invoice</h2>
      {options.available ? (
        <>
          <p className="hint">
            The invoice (810) bills the quantities shipped at the purchase order’s unit prices.
          </p>
          <button
            type="button"
            className="button primary"
            disabled={busy}
            aria-describedby={refusal ? 'invoice-refusal' : undefined}
            onClick={() => void invoice()}
          >
            {busy ? 'Sending invoice…' : 'Send invoice'}
          </button>
        </>
      ) : outcome === null ? (
        <p className="hint">{options.reason}</p>
      ) : null}
      {refusal ? (
        <p id="invoice-refusal" className="field-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <p ref={outcomeRef} tabIndex={-1} role="status">
        {outcome}
      </p>
    </section>
  );
}
