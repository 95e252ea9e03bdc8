import { saveBlob } from '../../components/saveBlob';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { bolBodySchema, type BolVersion, type OrderDetails } from '../../../../shared/orders';
import { describeError } from '../../api/ApiError';
import { uploadBol } from '../../api/orders';
import { useFileTransfer } from '../../api/transfer';
import { maxLengthAt } from '../../../../shared/schema-limits';
import { useAnnounce } from '../../status/StatusContext';
import { base64Of, checkBolFile, scheduledDeliveryOf } from './bolFile';
import { formatBytes } from '../../format/bytes';
import { formatTime } from '../../format/time';
import { invalidateOrders } from '../../api/orderKeys';
import { useBolVersions } from './orderQueries';

/**
 * The text inputs of the upload form, by body field. The numbers belong to one document: they
 * start empty and are cleared after each upload, so a corrected BOL is never recorded under the
 * previous one's numbers. The carrier fields describe the carrier and start from the order's.
 */
const BOL_FIELDS = [
  { name: 'bill_of_lading_number', label: 'BOL number', perDocument: true },
  { name: 'pro_number', label: 'PRO number', perDocument: true },
  { name: 'carrier', label: 'Carrier', perDocument: false },
  { name: 'carrier_alpha_code', label: 'Carrier alpha code (SCAC)', perDocument: false },
  { name: 'external_load_number', label: 'Load number', perDocument: true },
] as const;
type BolTextField = (typeof BOL_FIELDS)[number]['name'];

/** The form's starting values: the order's carrier, and no document numbers. */
function freshValues(ids: OrderDetails['identifiers']): Record<BolTextField, string> {
  return {
    bill_of_lading_number: '',
    pro_number: '',
    carrier: ids.carrier ?? '',
    carrier_alpha_code: ids.carrier_alpha_code ?? '',
    external_load_number: '',
  };
}
type FieldErrors = Partial<Record<BolTextField | 'scheduled_delivery_date' | 'file', string>>;

function BolHistory({ orderId }: { orderId: string }) {
  const versions = useBolVersions(orderId);
  const transfer = useFileTransfer();
  const [openError, setOpenError] = useState<string | null>(null);
  const open = async (version: BolVersion) => {
    setOpenError(null);
    try {
      saveBlob(await transfer.getBlob(version.file_url), version.file_name);
    } catch (error) {
      setOpenError(`Could not open ${version.file_name}: ${describeError(error)}`);
    }
  };

  if (versions.isPending) return <p role="status">Loading bills of lading…</p>;
  if (versions.isError) {
    return (
      <p role="alert">
        Could not load the bills of lading: {describeError(versions.error)}{' '}
        <button type="button" className="link-button" onClick={() => void versions.refetch()}>
          Retry
        </button>
      </p>
    );
  }
  if (versions.data.length === 0) {
    return <p className="hint">No bill of lading yet.</p>;
  }
  return (
    <>
      <ol className="bol-versions" aria-label="Bill of lading versions, newest first">
        {versions.data.map((version, index) => (
          <li key={version.version_id}>
            <strong>Version {version.version}</strong>
            {index === 0 ? <span className="badge">current</span> : null}: {version.file_name} (
            {formatBytes(version.size_bytes)}, {version.page_count}{' '}
            {version.page_count === 1 ? 'page' : 'pages'}), uploaded{' '}
            {formatTime(version.uploaded_at)}
            {version.uploaded_by_email ? ` by ${version.uploaded_by_email}` : ''}
            {version.bill_of_lading_number ? `; BOL ${version.bill_of_lading_number}` : ''}
            {version.pro_number ? `, PRO ${version.pro_number}` : ''}{' '}
            <button
              type="button"
              className="link-button"
              aria-label={`Open version ${version.version}, ${version.file_name}`}
              onClick={() => void open(version)}
            >
              Open PDF
            </button>
          </li>
        ))}
      </ol>
      {openError ? <p role="alert">{openError}</p> : null}
    </>
  );
}

/** The order's bill of lading: its versions, and a drop zone and form for a new one (endpoint 7). */
export function BolPanel({ order }: { order: OrderDetails }) {
  const orderId = order.identifiers.id;
  const ids = order.identifiers;
  const transfer = useFileTransfer();
  const queryClient = useQueryClient();
  const announce = useAnnounce();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [values, setValues] = useState<Record<BolTextField, string>>(() => freshValues(ids));
  const [scheduled, setScheduled] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const upload = useRef<AbortController | null>(null);
  // Leaving the page stops an upload in flight.
  useEffect(() => () => upload.current?.abort(), []);

  const choose = async (chosen: File | undefined) => {
    setOutcome(null);
    if (!chosen) return;
    const head = new Uint8Array(await chosen.slice(0, 8).arrayBuffer());
    const check = checkBolFile(chosen, head);
    if (!check.ok) {
      setFile(null);
      setErrors((previous) => ({ ...previous, file: check.reason }));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
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
    if (!file) {
      setErrors({ file: 'Choose the bill of lading PDF first.' });
      return;
    }
    const scheduledText = scheduled === '' ? null : scheduledDeliveryOf(scheduled);
    if (scheduled !== '' && scheduledText === null) {
      setErrors({ scheduled_delivery_date: 'Enter a date and a time.' });
      return;
    }
    const draft = {
      ...values,
      scheduled_delivery_date: scheduledText,
      file_name: file.name,
      file_content: 'checked-below',
    };
    const parsed = bolBodySchema.safeParse(draft);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'file_name' ? 'file' : issue.path[0];
        if (typeof field === 'string') next[field as keyof FieldErrors] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setProgress(0);
    const controller = new AbortController();
    upload.current = controller;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const message = await uploadBol(
        transfer,
        orderId,
        { ...parsed.data, file_content: base64Of(bytes) },
        setProgress,
        controller.signal,
      );
      const text = `${message || 'BOL uploaded successfully'}: ${file.name}.`;
      setOutcome({ ok: true, text });
      announce(text);
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      // The next upload is another document: its numbers are typed afresh.
      setValues((previous) => ({
        ...previous,
        bill_of_lading_number: '',
        pro_number: '',
        external_load_number: '',
      }));
      setScheduled('');
      await invalidateOrders(queryClient);
    } catch (error) {
      setOutcome({ ok: false, text: `Could not upload ${file.name}: ${describeError(error)}` });
    } finally {
      upload.current = null;
      setProgress(null);
    }
  };

  const uploading = progress !== null;
  if (order.status === 'Cancelled') {
    return (
      <section className="panel" aria-labelledby="order-bol">
        <h2 id="order-bol">Bill of lading</h2>
        <BolHistory orderId={orderId} />
        <p className="hint">A cancelled order takes no new bill of lading.</p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="order-bol">
      <h2 id="order-bol">Bill of lading</h2>
      <BolHistory orderId={orderId} />
      <form className="bol-form" onSubmit={(event) => void submit(event)} noValidate>
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          data-testid="bol-drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={(event) => {
            // Moving onto the zone's own text or input is not leaving it.
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
              setDragging(false);
            }
          }}
          onDrop={onDrop}
        >
          <p>
            {file
              ? `Ready to upload: ${file.name} (${formatBytes(file.size)}).`
              : 'Drop the bill of lading PDF here (at most 10 MB), or choose it.'}
          </p>
          <label htmlFor="bol-file">Bill of lading PDF</label>{' '}
          <input
            ref={fileInput}
            id="bol-file"
            type="file"
            accept="application/pdf,.pdf"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={errors.file ? 'bol-file-error' : undefined}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          {errors.file ? (
            <p id="bol-file-error" className="field-error" role="alert">
              {errors.file}
            </p>
          ) : null}
        </div>
        <div className="form-grid">
          {BOL_FIELDS.map((field) => (
            <div className="field" key={field.name}>
              <label htmlFor={`bol-${field.name}`}>{field.label}</label>
              <input
                id={`bol-${field.name}`}
                value={values[field.name]}
                maxLength={maxLengthAt(bolBodySchema, field.name)}
                aria-invalid={errors[field.name] ? true : undefined}
                aria-describedby={
                  [
                    errors[field.name] ? `bol-${field.name}-error` : null,
                    field.perDocument && ids[field.name] ? `bol-${field.name}-current` : null,
                  ]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
                onChange={(event) =>
                  setValues((previous) => ({ ...previous, [field.name]: event.target.value }))
                }
              />
              {field.perDocument && ids[field.name] ? (
                <p id={`bol-${field.name}-current`} className="hint">
                  On the order now: {ids[field.name]}. Left empty, it stays.
                </p>
              ) : null}
              {errors[field.name] ? (
                <p id={`bol-${field.name}-error`} className="field-error" role="alert">
                  {errors[field.name]}
                </p>
              ) : null}
            </div>
          ))}
          <div className="field">
            <label htmlFor="bol-scheduled">Scheduled delivery</label>
            <input
              id="bol-scheduled"
              type="datetime-local"
              step={1}
              value={scheduled}
              aria-invalid={errors.scheduled_delivery_date ? true : undefined}
              aria-describedby={errors.scheduled_delivery_date ? 'bol-scheduled-error' : undefined}
              onChange={(event) => setScheduled(event.target.value)}
            />
            {errors.scheduled_delivery_date ? (
              <p id="bol-scheduled-error" className="field-error" role="alert">
                {errors.scheduled_delivery_date}
              </p>
            ) : null}
          </div>
        </div>
        <div className="action-bar">
          <button type="submit" className="button primary" disabled={uploading}>
            {uploading ? 'Uploading…' : 'Upload bill of lading'}
          </button>
          {uploading ? (
            <label className="sending">
              Upload progress
              <progress value={progress} max={1}>
                {Math.round(progress * 100)}%
              </progress>
              {Math.round(progress * 100)}%
            </label>
          ) : null}
          {uploading ? (
            <button type="button" className="button" onClick={() => upload.current?.abort()}>
              Cancel upload
            </button>
          ) : null}
        </div>
        {outcome ? (
          <p
            className={outcome.ok ? 'status-ok' : 'field-error'}
            role={outcome.ok ? 'status' : 'alert'}
          >
            {outcome.text}
          </p>
        ) : null}
      </form>
    </section>
  );
}
