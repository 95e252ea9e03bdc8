import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { FulfilmentView } from '../../../../shared/fulfilment';
import { loadStateOf } from '../../api/queries';
import { OrderNotShown, isOrderNotFound } from '../orders/OrderNotShown';
import { CartonsPanel } from './CartonsPanel';
import { ConfirmDialog, type ConfirmRequest } from './ConfirmDialog';
import { DocumentsPanel } from './DocumentsPanel';
import { LinesTable } from './LinesTable';
import { PalletsPanel } from './PalletsPanel';
import { RetailerDocumentsPanel } from '../orders/RetailerDocumentsPanel';
import { ScanBox } from './ScanBox';
import { StepsPanel } from './StepsPanel';
import { commandOfKey, type PackingCommand } from './packingKeys';
import { useFulfilment } from './packingQueries';
import { usePackingStation, type PackingStation } from './usePackingStation';

const COMMANDS: Record<PackingCommand, (station: PackingStation) => Promise<void>> = {
  closeCarton: (station) => station.closeOpenCarton(),
  newPallet: (station) => station.newPallet(),
  printLabel: (station) => station.printLabel(),
  packingSlip: (station) => station.downloadPackingSlip(),
  complianceReport: (station) => station.downloadComplianceReport(),
  allLabels: (station) => station.downloadLabels(station.labelKind),
};

/** F2-F4 and F6-F8 anywhere on the screen (not while a dialog asks something). */
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
      void COMMANDS[command](latest.current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}

/** Asks before taking back "Complete packing" for a scan the Packed order refused. */
function reopenRequest(
  station: PackingStation,
  view: FulfilmentView,
  code: string,
): ConfirmRequest {
  return {
    title: 'Reopen packing?',
    body: (
      <p>
        Packing of {view.picksheet_code} is complete ({view.totals.packed_units} of{' '}
        {view.totals.ordered_units} units packed), so {code} was not packed. Reopen packing to pack
        it? The order goes back to Picking: complete packing again when you are done.
      </p>
    ),
    confirmLabel: 'Reopen and pack',
    onConfirm: () => void station.reopenAndPack(code),
  };
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
  const { reopenAsk, clearReopenAsk } = station;
  const request =
    confirm ?? (view && reopenAsk !== null ? reopenRequest(station, view, reopenAsk) : null);
  const closeDialog = () => {
    setConfirm(null);
    clearReopenAsk();
  };
  useCommandKeys(station, view !== null && request === null);

  // The scanner types into the focused element: once the order is in, and after a dialog
  // closed, that is the scan box.
  const loaded = view !== null;
  const asking = request !== null;
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
            <RetailerDocumentsPanel orderId={orderId} orderStatus={view.status} />
          </div>
        </div>
      ) : (
        <OrderNotShown
          error={state.status === 'error' ? state.message : null}
          notFound={notFound}
          onRetry={() => void query.refetch()}
        />
      )}
      {request ? <ConfirmDialog request={request} onClose={closeDialog} /> : null}
    </section>
  );
}
