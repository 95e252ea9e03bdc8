import { useRef, useState } from 'react';
import type { Invoice } from '../../../../shared/billing';
import { describeError, isApiError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import { fetchInvoiceOrderDetails } from '../../api/billing';
import { useAnnounce } from '../../status/StatusContext';
import { downloadText } from '../inventory/download';
import { orderDetailsCsv, summaryCsv } from './billingCsv';
import {
  BILLING_EXPORT_PAGE_SIZE,
  detailsQueryOf,
  exportNameOf,
  type BillingFilters,
} from './billingSearch';
import { fetchAllOrderDetails, progressText, type ExportProgress } from './exportDetails';

type ExportState =
  | { status: 'idle' }
  | { status: 'running'; progress: ExportProgress | null }
  | { status: 'error'; message: string };

/** The two CSV exports: the summary on screen, and every order detail under the filters. */
export function BillingExport({
  invoice,
  filters,
}: {
  invoice: Invoice | undefined;
  filters: BillingFilters;
}) {
  const api = useApi();
  const announce = useAnnounce();
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const name = exportNameOf(filters);

  const exportDetails = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: 'running', progress: null });
    try {
      const items = await fetchAllOrderDetails(
        (page) =>
          fetchInvoiceOrderDetails(
            api,
            detailsQueryOf(filters, page, BILLING_EXPORT_PAGE_SIZE),
            abort.signal,
          ),
        (progress) => setState({ status: 'running', progress }),
      );
      downloadText(`billing-orders-${name}.csv`, orderDetailsCsv(items), 'text/csv;charset=utf-8');
      announce(`Exported ${items.length} orders.`);
      setState({ status: 'idle' });
    } catch (error) {
      if (isApiError(error) && error.code === 'ABORTED') {
        announce('Export cancelled.');
        setState({ status: 'idle' });
      } else {
        setState({ status: 'error', message: describeError(error) });
      }
    } finally {
      controller.current = null;
    }
  };

  const running = state.status === 'running';
  return (
    <div className="billing-export" role="group" aria-label="Export">
      <button
        type="button"
        className="button"
        disabled={!invoice}
        onClick={() => {
          if (invoice) {
            downloadText(
              `billing-summary-${name}.csv`,
              summaryCsv(invoice),
              'text/csv;charset=utf-8',
            );
          }
        }}
      >
        Export summary CSV
      </button>
      <button
        type="button"
        className="button"
        disabled={running}
        onClick={() => void exportDetails()}
      >
        Export order details CSV
      </button>
      {running ? (
        <div className="billing-progress" role="status">
          {state.progress ? (
            <>
              <progress value={state.progress.loaded} max={state.progress.total || 1} />{' '}
              {progressText(state.progress)}
            </>
          ) : (
            'Fetching orders…'
          )}{' '}
          <button type="button" className="link-button" onClick={() => controller.current?.abort()}>
            Cancel export
          </button>
        </div>
      ) : null}
      {state.status === 'error' ? (
        <p className="form-error" role="alert">
          Could not export the order details: {state.message}
        </p>
      ) : null}
    </div>
  );
}
