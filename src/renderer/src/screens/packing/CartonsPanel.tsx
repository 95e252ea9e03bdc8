import { createColumnHelper } from '@tanstack/react-table';
import type { FulfilmentCarton, FulfilmentView } from '../../../../shared/fulfilment';
import { DataTable } from '../../components/DataTable';
import type { ConfirmRequest } from './ConfirmDialog';
import type { PackingStation } from './usePackingStation';

interface CartonRow {
  number: number;
  carton: FulfilmentCarton;
}

const column = createColumnHelper<CartonRow>();

/** Cartons may change pallets (or be unpacked) until the order is staged. */
const EDITABLE = ['Picking', 'Packed'];

const contentsOf = (carton: FulfilmentCarton) =>
  carton.skus.map((sku) => `${sku.quantity} × ${sku.sku}`).join(', ') || 'empty';

/** Every carton in packing order, with a pallet choice and its own commands. */
export function CartonsPanel({
  view,
  station,
  confirm,
}: {
  view: FulfilmentView;
  station: PackingStation;
  confirm: (request: ConfirmRequest) => void;
}) {
  const editable = EDITABLE.includes(view.status);
  const palletNumber = (id: string) => view.pallets.findIndex((p) => p.id === id) + 1;
  const columns = [
    column.accessor('number', {
      header: 'Carton',
      cell: (info) => {
        const { number, carton } = info.row.original;
        const chosen = station.selected?.kind === 'carton' && station.selected.id === carton.id;
        return (
          <>
            Carton {number}
            {carton.packing_complete_at === null ? <span className="badge">open</span> : null}
            {chosen ? <span className="badge">selected</span> : null}
          </>
        );
      },
    }),
    column.accessor((row) => row.carton.sscc ?? '', {
      id: 'sscc',
      header: 'SSCC',
      cell: (info) => (info.getValue() ? <code>{info.getValue()}</code> : '—'),
    }),
    column.accessor((row) => contentsOf(row.carton), { id: 'contents', header: 'Contents' }),
    column.accessor((row) => row.carton.units, { id: 'units', header: 'Units' }),
    column.display({
      id: 'pallet',
      header: 'Pallet',
      cell: (info) => {
        const { number, carton } = info.row.original;
        const choices = view.pallets.filter(
          (p) => p.status === 'Open' || p.id === carton.pallet_id,
        );
        return (
          <select
            aria-label={`Pallet for carton ${number}`}
            value={carton.pallet_id ?? ''}
            disabled={!editable || carton.packing_complete_at === null || station.busy !== null}
            onChange={(event) => void station.putOnPallet(carton.id, event.target.value || null)}
          >
            <option value="">Not on a pallet</option>
            {choices.map((pallet) => (
              <option key={pallet.id} value={pallet.id}>
                Pallet {palletNumber(pallet.id)}
              </option>
            ))}
          </select>
        );
      },
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: (info) => {
        const { number, carton } = info.row.original;
        return (
          <span className="packing-row-actions">
            <button
              type="button"
              className="link-button"
              aria-label={`Select carton ${number}`}
              onClick={() => {
                station.select({ kind: 'carton', id: carton.id });
                station.focusScan();
              }}
            >
              Select
            </button>
            {editable ? (
              <button
                type="button"
                className="link-button"
                aria-label={`Unpack carton ${number}`}
                onClick={() =>
                  confirm({
                    title: `Unpack carton ${number}?`,
                    body: (
                      <p>
                        Its {carton.units} units ({contentsOf(carton)}) count as not packed again,
                        and its label is no longer valid.
                      </p>
                    ),
                    confirmLabel: 'Unpack',
                    onConfirm: () => void station.unpack(carton.id),
                  })
                }
              >
                Unpack
              </button>
            ) : null}
          </span>
        );
      },
    }),
  ];

  const rows = view.cartons.map((carton, index) => ({ number: index + 1, carton }));
  const loose = view.totals.cartons_not_on_pallet;
  return (
    <section className="panel" aria-labelledby="packing-cartons-heading">
      <h2 id="packing-cartons-heading">Cartons</h2>
      {rows.length === 0 ? (
        <p className="state-message">Nothing packed yet. Scan an item to start a carton.</p>
      ) : (
        <DataTable
          data={rows}
          columns={columns}
          caption={`${rows.length} ${rows.length === 1 ? 'carton' : 'cartons'}${
            view.needs_pallets && loose > 0 ? `, ${loose} not on a pallet` : ''
          }`}
          getRowId={(row) => row.carton.id}
        />
      )}
    </section>
  );
}
