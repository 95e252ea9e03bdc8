import { useState, type FormEvent } from 'react';
import type { FulfilmentView } from '../../../../shared/fulfilment';
import { PACKING_KEYS } from './packingKeys';
import type { PackingStation } from './usePackingStation';

function unitName(view: FulfilmentView, kind: 'carton' | 'pallet', id: string): string | null {
  const list: { id: string; sscc: string | null }[] =
    kind === 'carton' ? view.cartons : view.pallets;
  const index = list.findIndex((unit) => unit.id === id);
  if (index < 0) return null;
  const sscc = list[index]?.sscc;
  return `${kind === 'carton' ? 'Carton' : 'Pallet'} ${index + 1}${sscc ? ` (${sscc})` : ''}`;
}

/**
 * The scan box and the one-key commands. A scanner types the code and Enter; the box empties and
 * keeps the focus for the next scan. Refusals show large next to it.
 */
export function ScanBox({ view, station }: { view: FulfilmentView; station: PackingStation }) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const scanned = code;
    setCode('');
    station.scan(scanned);
  };
  const open = view.open_carton;
  const labelUnit = station.labelUnit();
  const labelName = labelUnit ? unitName(view, labelUnit.kind, labelUnit.id) : null;
  const openName = open ? unitName(view, 'carton', open.id) : null;
  const targetName = station.target ? unitName(view, 'pallet', station.target.id) : null;

  return (
    <section className="panel packing-scan" aria-labelledby="packing-scan-heading">
      <h2 id="packing-scan-heading">Packing station</h2>
      <form onSubmit={submit} className="packing-scan-form">
        <label htmlFor="packing-scan-input">Scan</label>
        <input
          id="packing-scan-input"
          ref={station.scanInput}
          className="packing-scan-input"
          value={code}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="packing-scan-help packing-feedback"
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className="button">
          Pack
        </button>
      </form>
      <p id="packing-scan-help" className="hint">
        Scan or type a SKU, UPC or case barcode and press Enter to pack it into the open carton (one
        is opened when none is). Scan a carton’s or pallet’s SSCC to select it.
      </p>
      <div
        id="packing-feedback"
        className={`packing-feedback${station.feedback ? ` ${station.feedback.tone}` : ''}`}
      >
        <p role="alert" className="packing-feedback-error">
          {station.feedback?.tone === 'error' ? station.feedback.text : ''}
        </p>
        {station.feedback?.tone === 'error' && station.feedback.detail ? (
          <details className="message-details">
            <summary>Details</summary>
            <code>{station.feedback.detail}</code>
          </details>
        ) : null}
        {station.pdfInstead ? (
          <p>
            <button
              type="button"
              className="button"
              aria-describedby="packing-pdf-instead-hint"
              onClick={station.savePdfInstead}
            >
              Save as PDF instead
            </button>{' '}
            <span id="packing-pdf-instead-hint" className="hint">
              Downloads {station.pdfInstead.what} as a PDF to print on another printer.
            </span>
          </p>
        ) : null}
        <p role="status" className="packing-feedback-ok">
          {station.feedback?.tone === 'ok' ? station.feedback.text : ''}
          {station.busy ? <span className="hint"> {station.busy}</span> : null}
        </p>
      </div>
      <dl className="facts packing-now">
        <div>
          <dt>Open carton</dt>
          <dd>
            {openName && open
              ? `${openName}: ${open.units} ${open.units === 1 ? 'unit' : 'units'}`
              : 'none — the next scan opens one'}
          </dd>
        </div>
        <div>
          <dt>Closed cartons go on</dt>
          <dd>
            {targetName ?? 'no pallet (press New pallet or scan a pallet)'}
            {station.target ? (
              <>
                {' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    station.setTargetPalletId(null);
                    station.focusScan();
                  }}
                >
                  Stop using this pallet
                </button>
              </>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Label prints for</dt>
          <dd>{labelName ?? 'nothing yet'}</dd>
        </div>
      </dl>
      <div className="action-bar packing-commands">
        <button
          type="button"
          className="button"
          aria-keyshortcuts={PACKING_KEYS.closeCarton}
          disabled={!open}
          onClick={() => void station.closeOpenCarton()}
        >
          Close carton <kbd>{PACKING_KEYS.closeCarton}</kbd>
        </button>
        <button
          type="button"
          className="button"
          aria-keyshortcuts={PACKING_KEYS.newPallet}
          onClick={() => void station.newPallet()}
        >
          New pallet <kbd>{PACKING_KEYS.newPallet}</kbd>
        </button>
        <button
          type="button"
          className="button"
          aria-keyshortcuts={PACKING_KEYS.printLabel}
          disabled={!labelUnit}
          onClick={() => void station.printLabel()}
        >
          Print label <kbd>{PACKING_KEYS.printLabel}</kbd>
        </button>
      </div>
      <p className="hint packing-keys">
        Keys: <kbd>Enter</kbd> packs the scanned code · <kbd>{PACKING_KEYS.closeCarton}</kbd> closes
        the open carton (onto the chosen pallet) · <kbd>{PACKING_KEYS.newPallet}</kbd> makes a
        pallet with the closed cartons not on one · <kbd>{PACKING_KEYS.printLabel}</kbd> prints the
        label of the selected carton or pallet
        {station.printerHost
          ? ` on ${station.printerHost}`
          : ' as a PDF (no label printer set)'} · <kbd>{PACKING_KEYS.packingSlip}</kbd> packing slip
        · <kbd>{PACKING_KEYS.complianceReport}</kbd> compliance report ·{' '}
        <kbd>{PACKING_KEYS.allLabels}</kbd> all labels of the chosen kind (PDFs).
      </p>
    </section>
  );
}
