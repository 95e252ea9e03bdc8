import { createColumnHelper } from '@tanstack/react-table';
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { ClaimsImportKind } from '../../api/claims';
import { useAnnounce } from '../../status/StatusContext';
import { DataTable } from '../../components/DataTable';
import { formatBytes } from '../../format/bytes';
import { useClaimsImport } from './claimsQueries';
import { useBrandRetailers } from '../../api/lookupQueries';
import {
  checkCsvFile,
  csvHasColumn,
  importRefusalOf,
  importSummaryOf,
  looksBinary,
  notCsvReason,
  SNIFF_BYTES,
  type ImportRefusal,
  type ReportLine,
} from './importReport';

const TEXT: Record<ClaimsImportKind, { what: string; columns: string }> = {
  chargebacks: {
    what: 'chargebacks',
    columns:
      'The first row names the columns. Needed: chargeback number, amount and chargeback date. Read when present: PO number, reason code, category, description, dispute deadline and status.',
  },
  pos: {
    what: 'POS rows',
    columns:
      'The first row names the columns. Needed: SKU, week ending (end date), units sold and sales. Read when present: store, start date, returns, cost, margin, on hand and on order.',
  },
};

const line = createColumnHelper<ReportLine>();
const REPORT_COLUMNS = [
  line.accessor('row', { header: 'CSV row' }),
  line.accessor('column', { header: 'Column' }),
  line.accessor('reason', { header: 'Reason', enableSorting: false }),
];

type Outcome = { ok: true; text: string } | { ok: false; refusal: ImportRefusal };
type FieldErrors = Partial<Record<'file' | 'brand' | 'retailer', string>>;

function RejectionReport({ refusal, what }: { refusal: ImportRefusal; what: string }) {
  return (
    <div className="claims-import-report">
      <p className="field-error" role="alert">
        {refusal.message}
        {refusal.lines.length > 0
          ? '. Fix these rows in the file and upload it again.'
          : ` No ${what} were imported.`}
      </p>
      {refusal.lines.length > 0 ? (
        <DataTable
          data={refusal.lines}
          columns={REPORT_COLUMNS}
          caption={`Rejected rows (${refusal.lines.length}${refusal.truncated ? ', only the first are listed' : ''})`}
          getRowId={(row) => row.key}
        />
      ) : null}
    </div>
  );
}

/**
 * Upload of a retailer's CSV export (chargebacks or POS rows): pick or drop the file, choose the
 * brand and retailer, upload; a refused file shows its rows, a good one a summary. One panel,
 * used by both screens.
 */
export function ImportCsvPanel({ kind }: { kind: ClaimsImportKind }) {
  const id = useId();
  const text = TEXT[kind];
  const announce = useAnnounce();
  const choices = useBrandRetailers();
  const upload = useClaimsImport(kind);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [brandId, setBrandId] = useState('');
  const [retailerId, setRetailerId] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const brands = choices.data ?? [];
  // With one brand there is nothing to choose.
  const chosenBrand = brandId || (brands.length === 1 ? brands[0]!.brand.brand_id : '');
  const retailers = brands.find((entry) => entry.brand.brand_id === chosenBrand)?.retailers ?? [];

  const refuse = (reason: string) => {
    setFile(null);
    setErrors((previous) => ({ ...previous, file: reason }));
    if (fileInput.current) fileInput.current.value = '';
  };

  const choose = async (chosen: File | undefined) => {
    setOutcome(null);
    if (!chosen) return;
    const check = checkCsvFile(chosen);
    if (!check.ok) return refuse(check.reason);
    // The name can lie (a PDF saved as .csv): its first bytes cannot.
    const head = new Uint8Array(await chosen.slice(0, SNIFF_BYTES).arrayBuffer());
    if (looksBinary(head)) return refuse(notCsvReason(chosen.name));
    setFile(chosen);
    setErrors((previous) => ({ ...previous, file: undefined }));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    const next: FieldErrors = {};
    if (!file) next.file = 'Choose the CSV file first.';
    if (!chosenBrand) next.brand = 'Choose the brand the file is for.';
    const csv = file ? await file.text() : '';
    if (file && !retailerId && !csvHasColumn(csv, 'retailer_id')) {
      next.retailer = 'Choose the retailer the file comes from.';
    }
    setErrors(next);
    if (!file || Object.keys(next).length > 0) return;
    try {
      const result = await upload.mutateAsync({
        csv,
        brand_id: chosenBrand,
        ...(retailerId ? { retailer_id: retailerId } : {}),
      });
      const summary = `${file.name}: ${importSummaryOf(result)}`;
      setOutcome({ ok: true, text: summary });
      announce(summary);
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      setOutcome({ ok: false, refusal: importRefusalOf(error) });
    }
  };

  const fieldError = (field: keyof FieldErrors) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="field-error" role="alert">
        {errors[field]}
      </p>
    ) : null;
  const describedBy = (field: keyof FieldErrors) =>
    errors[field] ? `${id}-${field}-error` : undefined;

  return (
    <form
      className="claims-import"
      aria-label={`Import ${text.what} from CSV`}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <p className="hint">{text.columns}</p>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        data-testid={`${kind}-drop-zone`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          // Moving onto the zone's own text or input is not leaving it.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <p>
          {file
            ? `Ready to upload: ${file.name} (${formatBytes(file.size)}).`
            : 'Drop the CSV file here, or choose it.'}
        </p>
        <label htmlFor={`${id}-file`}>CSV file</label>
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv,.txt,text/plain"
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={describedBy('file')}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        {fieldError('file')}
      </div>
      <div className="claims-import-scope">
        <div className="field">
          <label htmlFor={`${id}-brand`}>Brand</label>
          <select
            id={`${id}-brand`}
            value={chosenBrand}
            aria-invalid={errors.brand ? true : undefined}
            aria-describedby={describedBy('brand')}
            onChange={(event) => {
              setBrandId(event.target.value);
              setRetailerId('');
            }}
          >
            <option value="">{choices.isPending ? 'Loading brands…' : 'Choose a brand'}</option>
            {brands.map((entry) => (
              <option key={entry.brand.brand_id} value={entry.brand.brand_id}>
                {entry.brand.name}
              </option>
            ))}
          </select>
          {fieldError('brand')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-retailer`}>Retailer</label>
          <select
            id={`${id}-retailer`}
            value={retailerId}
            disabled={!chosenBrand}
            aria-invalid={errors.retailer ? true : undefined}
            aria-describedby={describedBy('retailer')}
            onChange={(event) => setRetailerId(event.target.value)}
          >
            {/* The service then reads each row's retailer_id column; the clerk need not know its name. */}
            <option value="">Named on each row of the file</option>
            {retailers.map((retailer) => (
              <option key={retailer.retailer_id} value={retailer.retailer_id}>
                {retailer.name}
              </option>
            ))}
          </select>
          {fieldError('retailer')}
        </div>
      </div>
      {choices.isError ? (
        <p className="field-error" role="alert">
          Could not load the brands and retailers.{' '}
          <button type="button" className="link-button" onClick={() => void choices.refetch()}>
            Retry
          </button>
        </p>
      ) : null}
      <div className="action-bar">
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload CSV'}
        </button>
        {upload.isPending ? (
          <label className="sending">
            Checking every row
            <progress />
          </label>
        ) : null}
      </div>
      {outcome?.ok ? (
        <p className="status-ok" role="status">
          {outcome.text}
        </p>
      ) : outcome ? (
        <RejectionReport refusal={outcome.refusal} what={text.what} />
      ) : null}
    </form>
  );
}
