import type { FulfilmentView } from '../../../../shared/fulfilment';
import type { PackingStation } from './usePackingStation';

/** The order's pallets: which one closed cartons go on, and deleting one before staging. */
export function PalletsPanel({ view, station }: { view: FulfilmentView; station: PackingStation }) {
  const editable = view.status === 'Picking' || view.status === 'Packed';
  return (
    <section className="panel" aria-labelledby="packing-pallets-heading">
      <h2 id="packing-pallets-heading">Pallets</h2>
      {view.pallets.length === 0 ? (
        <p className="hint">
          {view.needs_pallets
            ? 'No pallet yet. This order ships on pallets: close a carton, then press New pallet.'
            : 'No pallet. This parcel order may ship as loose cartons.'}
        </p>
      ) : (
        <ol className="packing-pallets">
          {view.pallets.map((pallet, index) => {
            const number = index + 1;
            const isTarget = station.target?.id === pallet.id;
            return (
              <li key={pallet.id} className={isTarget ? 'packing-target' : undefined}>
                <strong>Pallet {number}</strong> {pallet.sscc ? <code>{pallet.sscc}</code> : null}
                <span className="badge">{pallet.status}</span>
                {isTarget ? <span className="badge">closed cartons go here</span> : null}{' '}
                {pallet.carton_ids.length} {pallet.carton_ids.length === 1 ? 'carton' : 'cartons'}
                <span className="packing-row-actions">
                  {pallet.status === 'Open' && !isTarget ? (
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Put closed cartons on pallet ${number}`}
                      onClick={() => {
                        station.setTargetPalletId(pallet.id);
                        station.focusScan();
                      }}
                    >
                      Put closed cartons here
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Select pallet ${number} for its label`}
                    onClick={() => {
                      station.select({ kind: 'pallet', id: pallet.id });
                      station.focusScan();
                    }}
                  >
                    Select
                  </button>
                  {editable ? (
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Delete pallet ${number}`}
                      onClick={() => void station.removePallet(pallet.id)}
                    >
                      Delete
                    </button>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
