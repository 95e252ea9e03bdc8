import type { LabelKind } from '../../../../shared/documents';
import type { FulfilmentView } from '../../../../shared/fulfilment';
import { PACKING_KEYS } from './packingKeys';
import type { PackingStation } from './usePackingStation';

const KIND_LABELS: Record<LabelKind, string> = {
  gs1: 'GS1-128 shipping labels',
  qr: 'QR code labels',
  placard: 'Pallet placards',
};

/**
 * Labels, the packing slip and the compliance report. The window may not show a PDF inside the
 * app (its security policy allows no blob: frames), so each PDF is saved as a download to open
 * and print.
 */
export function DocumentsPanel({
  view,
  station,
}: {
  view: FulfilmentView;
  station: PackingStation;
}) {
  // The station keeps the kind: F8 gets the labels of the kind chosen here.
  const kind = station.labelKind;
  const busy = station.busy !== null;
  const labelled = kind === 'placard' ? view.pallets.length > 0 : view.cartons.length > 0;
  const packed = view.packed_at !== null;
  return (
    <section className="panel" aria-labelledby="packing-documents-heading">
      <h2 id="packing-documents-heading">Labels and documents</h2>
      <div className="action-bar packing-documents">
        <label htmlFor="packing-label-kind">Label kind</label>
        <select
          id="packing-label-kind"
          value={kind}
          onChange={(event) => station.setLabelKind(event.target.value as LabelKind)}
        >
          {Object.entries(KIND_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          disabled={busy || !labelled}
          aria-keyshortcuts={PACKING_KEYS.allLabels}
          onClick={() => void station.downloadLabels(kind)}
        >
          All labels (PDF) <kbd>{PACKING_KEYS.allLabels}</kbd>
        </button>
        {station.printerHost ? (
          <button
            type="button"
            className="button"
            disabled={busy || !labelled}
            onClick={() => void station.sendLabels(kind)}
          >
            Send all to {station.printerHost}
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-keyshortcuts={PACKING_KEYS.packingSlip}
          onClick={() => void station.downloadPackingSlip()}
        >
          Packing slip (PDF) <kbd>{PACKING_KEYS.packingSlip}</kbd>
        </button>
        <button
          type="button"
          className="button"
          disabled={busy || !packed}
          aria-describedby={packed ? undefined : 'packing-compliance-hint'}
          aria-keyshortcuts={PACKING_KEYS.complianceReport}
          onClick={() => void station.downloadComplianceReport()}
        >
          Compliance report (PDF) <kbd>{PACKING_KEYS.complianceReport}</kbd>
        </button>
      </div>
      <p className="hint">
        {labelled
          ? 'PDFs are saved as downloads: open one to print it. Printing counts for billing.'
          : kind === 'placard'
            ? 'Placards are for pallets: make a pallet first.'
            : 'Labels come once a carton is packed.'}
      </p>
      {packed ? null : (
        <p id="packing-compliance-hint" className="hint">
          The compliance report is there once packing is complete.
        </p>
      )}
    </section>
  );
}
