import { useId, useState, type DragEvent } from 'react';
import { localDay, MAX_ITEMS } from '../../../../shared/inventory';
import { QUANTITY_RULE, STATUS_LABELS, STATUS_WORDS } from './cellRules';
import { FIELD_LABELS, HEADER_EXAMPLES, ITEM_FIELDS } from './columns';
import { downloadText } from './download';
import { templateCsv } from './problemList';
import { ACCEPTED_FILES } from './readInput';

interface InputPanelProps {
  onFile: (file: File) => void;
  onText: (text: string) => void;
  disabled: boolean;
  /** Retailers whose direct feed needs a status at quantity 0 (null: not known yet). */
  statusRetailers?: readonly string[] | null;
}

const limit = MAX_ITEMS.toLocaleString('en-US');

const joinNames = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Which retailers need a status at 0, said before any preview. */
function StatusNote({ retailers }: { retailers: readonly string[] | null | undefined }) {
  if (!retailers) return null;
  if (retailers.length === 0) {
    return (
      <p className="hint status-note" role="note">
        No retailer here gets a direct feed: a quantity of 0 needs no status.
      </p>
    );
  }
  return (
    <p className="status-note" role="note">
      <strong>
        {joinNames(retailers)} {retailers.length === 1 ? 'gets' : 'get'} a direct feed:
      </strong>{' '}
      every row with quantity 0 needs a status ({STATUS_LABELS.DISCONTINUED} or{' '}
      {STATUS_LABELS.TEMPORARILY_UNAVAILABLE}).
    </p>
  );
}

/** What the file may contain: column names, status words, quantities, dates and the row limit. */
function FileHelp() {
  return (
    <details className="file-help">
      <summary>Columns and words this screen understands</summary>
      <dl>
        {ITEM_FIELDS.map((field) => (
          <div key={field}>
            <dt>
              {FIELD_LABELS[field]}
              {field === 'sku' || field === 'available_quantity' ? ' (required)' : ' (optional)'}
            </dt>
            <dd>{HEADER_EXAMPLES[field].join(', ')}</dd>
          </div>
        ))}
      </dl>
      <p>
        <strong>Status words:</strong> {Object.values(STATUS_WORDS).flat().join(', ')} (any
        capitals). A status is only for rows with quantity 0.
      </p>
      <p>
        <strong>Quantities:</strong> {QUANTITY_RULE}
      </p>
      <p>
        <strong>Back in stock:</strong> a date written year-month-day, e.g. 2030-12-31, today or
        later; needed with Temporarily unavailable.
      </p>
    </details>
  );
}

/** A drop zone with a file picker, a box to paste CSV or TSV rows into, and what they may hold. */
export function InputPanel({ onFile, onText, disabled, statusRetailers }: InputPanelProps) {
  const [dragging, setDragging] = useState(false);
  const [pasted, setPasted] = useState('');
  const hintId = useId();
  const pasteHintId = useId();

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };

  return (
    <>
      <div className="input-help">
        <p className="hint">
          One row per SKU, up to {limit} rows per file. The first row names the columns: sku and
          available_quantity, optionally status and estimated_back_in_stock_date. Quantities are
          whole numbers (1,200 is fine; 7.5 is refused, never rounded).
        </p>
        <button
          type="button"
          className="button"
          onClick={() =>
            downloadText('inventory-template.csv', templateCsv(localDay(new Date())), 'text/csv')
          }
        >
          Download template (CSV)
        </button>
        <StatusNote retailers={statusRetailers} />
        <FileHelp />
      </div>
      <div className="input-panel">
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          onDragEnter={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragOver={(event) => event.preventDefault()}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <label htmlFor="inventory-file">Inventory file</label>
          <p id={hintId} className="hint">
            Drop a .csv or .xlsx file here, or choose one. The first row names the columns.
          </p>
          <input
            id="inventory-file"
            type="file"
            accept={ACCEPTED_FILES}
            aria-describedby={hintId}
            disabled={disabled}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) onFile(file);
              // Choosing the same file again (after fixing it) must still fire a change.
              event.target.value = '';
            }}
          />
        </div>
        <form
          className="paste-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!disabled) onText(pasted);
          }}
        >
          <div className="field">
            <label htmlFor="inventory-paste">Paste rows</label>
            <p id={pasteHintId} className="hint">
              CSV or tab-separated rows, e.g. copied from a spreadsheet, with the header row first.
            </p>
            <textarea
              id="inventory-paste"
              rows={5}
              value={pasted}
              aria-describedby={pasteHintId}
              spellCheck={false}
              onChange={(event) => setPasted(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  if (!disabled) onText(pasted);
                }
              }}
            />
          </div>
          <button type="submit" className="button" disabled={disabled}>
            Use pasted rows
          </button>
        </form>
      </div>
    </>
  );
}
