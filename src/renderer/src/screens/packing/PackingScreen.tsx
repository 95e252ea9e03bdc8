import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { loadStateOf } from '../../api/queries';
import { OrderNotShown, isOrderNotFound } from '../orders/OrderNotShown';
import { CartonsPanel } from './CartonsPanel';
import { ConfirmDialog, type ConfirmRequest } from './ConfirmDialog';
import { DocumentsPanel } from './DocumentsPanel';
import { LinesTable } from './LinesTable';
import { PalletsPanel } from './PalletsPanel';
import { ScanBox } from './ScanBox';
import { StepsPanel } from './StepsPanel';
import { commandOfKey } from './packingKeys';
import { useFulfilment } from './packingQueries';
import { usePackingStation, type PackingStation } from './usePackingStation';

/** F2, F3 and F4 anywhere on the screen (not while a dialog asks something). */
function useCommandKeys(station: PackingStation, active: boolean) {
  const latest = useRef(station);
  latest.current = station;
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (event: KeyboardEvent) => {
      const command = commandOfKey(event);
      if (!command || event.repeat) return;
      event.preventDefault();
      // Queued behind scans still in flight, like a command button.
      const current = latest.current;
      if (command === 'closeCarton') void current.closeOpenCarton();
      else if (command === 'newPallet') void current.newPallet();
      else void current.printLabel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}

/** Packing one order at a station with a barcode scanner: scans, cartons, pallets, the steps. */
export function PackingScreen() {
  const { orderId } = useParams({ from: '/orders/$orderId/pack' });
  const query = useFulfilment(orderId);
  const state = loadStateOf(query);
  const view = state.status === 'ready' ? state.data : null;
  const station = usePackingStation(orderId, view);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const notFound = isOrderNotFound(query.error);
  useCommandKeys(station, view !== null && confirm === null);

  // The scanner types into the focused element: once the order is in, and after a dialog
  // closed, that is the scan box.
  const loaded = view !== null;
  const asking = confirm !== null;
  const { focusScan } = station;
  useEffect(() => {
    if (loaded && !asking) focusScan();
  }, [loaded, asking, focusScan]);

  return (
    <section className="packing" aria-labelledby="packing-heading">
      <p className="breadcrumb">
        <Link to="/orders">Orders</Link>
        {view ? (
          <>
            {' / '}
            <Link to="/orders/$orderId" params={{ orderId }}>
              Order {view.picksheet_code}
            </Link>
          </>
        ) : null}
      </p>
      <div className="screen-header">
        <h1 id="packing-heading" tabIndex={-1}>
          {view ? (
            <>
              Pack {view.picksheet_code} <span className="badge">{view.status}</span>
            </>
          ) : notFound ? (
            'Order not found'
          ) : (
            'Packing'
          )}
        </h1>
        {view ? (
          <p className="hint">
            {view.brand.name}
            {view.po_number ? `, PO ${view.po_number}` : ''}
            {view.transportation_method ? `, ${view.transportation_method}` : ''}
            {view.needs_pallets ? ' (ships on pallets)' : ' (parcel: loose cartons)'}
          </p>
        ) : null}
      </div>
      {view ? (
        <div className="packing-layout">
          <div className="packing-area-scan">
            <ScanBox view={view} station={station} />
          </div>
          <div className="packing-area-steps">
            <StepsPanel view={view} station={station} confirm={setConfirm} />
          </div>
          <div className="packing-area-lines">
            <LinesTable view={view} />
          </div>
          <div className="packing-area-cartons">
            <CartonsPanel view={view} station={station} confirm={setConfirm} />
          </div>
          <div className="packing-area-side">
            <PalletsPanel view={view} station={station} />
            <DocumentsPanel view={view} station={station} />
          </div>
        </div>
      ) : (
        <OrderNotShown
          error={state.status === 'error' ? state.message : null}
          notFound={notFound}
          onRetry={() => void query.refetch()}
        />
      )}
      {confirm ? <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} /> : null}
    </section>
  );
}
