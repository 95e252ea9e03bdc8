import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import {
  ediInboxKeys,
  fetchInterchange,
  fetchInterchangeRaw,
  reprocessInterchange,
} from '../../api/ediInbox';
import { invalidateOrders } from '../../api/orderKeys';
import { loadStateOf } from '../../api/queries';
import { Loaded } from '../../components/LoadStates';
import { saveBlob } from '../../components/saveBlob';
import { formatTime } from '../../format/time';
import { statusName } from './documentNames';
import { canReprocess, OUTCOME_LABELS, setName, SOURCE_LABELS } from './inboxFormat';

/**
 * One inbound interchange: its sets with their orders (links to the order page), the reason in
 * clerk words, the text one segment per line, a Download, and Reprocess for a refused, rejected
 * or partly taken-in one. A file refused as too large kept no text: it says so, with neither
 * Download nor Reprocess. Escape closes it, as Close does.
 */
export function InterchangeDetailPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ediInboxKeys.one(id),
    queryFn: ({ signal }) => fetchInterchange(api, id, signal),
    staleTime: 0,
  });
  const [busy, setBusy] = useState<'reprocess' | 'download' | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);

  // A row's Open moves the focus here, so keyboard and screen-reader users land on what opened.
  useEffect(() => {
    setNote(null);
    headingRef.current?.focus();
  }, [id]);

  const reprocess = async () => {
    setBusy('reprocess');
    setNote(null);
    try {
      const answer = await reprocessInterchange(api, id);
      queryClient.setQueryData(ediInboxKeys.one(id), answer.interchange);
      setNote(answer.message);
    } catch (error) {
      setNote(describeError(error));
    } finally {
      setBusy(null);
      // The pressed button was disabled (so lost the focus) and may be gone: the answer takes it.
      noteRef.current?.focus();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [...ediInboxKeys.all, 'list'] }),
        invalidateOrders(queryClient),
      ]).catch(() => undefined);
    }
  };

  const download = async (fileName: string) => {
    setBusy('download');
    setNote(null);
    try {
      const document = await fetchInterchangeRaw(api, id);
      saveBlob(new Blob([document.text], { type: document.contentType }), fileName);
    } catch (error) {
      setNote(describeError(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      className="panel edi-interchange"
      aria-labelledby="edi-interchange-heading"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onClose();
      }}
    >
      <div className="panel-header">
        <h2 id="edi-interchange-heading" ref={headingRef} tabIndex={-1}>
          Interchange
        </h2>
        <button type="button" className="button" onClick={onClose}>
          Close <span className="visually-hidden">interchange</span>
        </button>
      </div>
      <Loaded
        state={loadStateOf(query)}
        onRetry={() => void query.refetch()}
        loading="Loading the interchange…"
        failed="Could not load the interchange"
      >
        {(item) => (
          <>
            <dl className="details">
              <dt>Received</dt>
              <dd>
                {formatTime(item.received_at)} ({SOURCE_LABELS[item.source]}
                {item.file_name ? `: ${item.file_name}` : ''})
              </dd>
              <dt>From</dt>
              <dd>
                {item.retailer_name ?? 'Unknown retailer'} (sender {item.sender || 'unknown'}) to{' '}
                {item.brand_name ?? 'unknown brand'}
              </dd>
              <dt>Control number</dt>
              <dd>{item.control_number || 'none'}</dd>
              <dt>Outcome</dt>
              <dd>
                <span className={`badge outcome-${item.outcome}`}>
                  {OUTCOME_LABELS[item.outcome]}
                </span>
                {item.reprocessed_at ? ` (reprocessed ${formatTime(item.reprocessed_at)})` : ''}
              </dd>
            </dl>
            {item.reason && (
              <div className="interchange-reason" role="note" aria-label="Reason">
                {item.reason.split('\n').map((line) => (
                  <p key={line}>{line}</p>
                ))}
              </div>
            )}
            {item.sets.length > 0 && (
              <table className="data-table">
                <caption>Transaction sets</caption>
                <thead>
                  <tr>
                    <th scope="col">Set</th>
                    <th scope="col">Control</th>
                    <th scope="col">PO</th>
                    <th scope="col">Status</th>
                    <th scope="col">Order</th>
                    <th scope="col">Errors</th>
                  </tr>
                </thead>
                <tbody>
                  {item.sets.map((set, index) => {
                    const order = item.orders.find((o) => o.id === set.order_id);
                    return (
                      <tr key={`${index}-${set.control_number}`}>
                        <td>{setName(set.type)}</td>
                        <td>{set.control_number}</td>
                        <td>{set.po_number ?? ''}</td>
                        <td>{statusName(set.status)}</td>
                        <td>
                          {set.order_id ? (
                            <Link to="/orders/$orderId" params={{ orderId: set.order_id }}>
                              {`Order ${order?.po_number ?? set.po_number ?? ''}`.trim()}
                              {order ? ` (${order.status})` : ''}
                            </Link>
                          ) : (
                            ''
                          )}
                        </td>
                        <td>{set.errors.join('; ')}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            <div className="actions">
              {item.content_kept && (
                <button
                  type="button"
                  className="button"
                  disabled={busy !== null}
                  onClick={() =>
                    void download(
                      item.file_name ?? `interchange-${item.control_number || item.id}.edi`,
                    )
                  }
                >
                  {busy === 'download' ? 'Downloading…' : 'Download'}
                </button>
              )}
              {canReprocess(item) && (
                <button
                  type="button"
                  className="button primary"
                  disabled={busy !== null}
                  onClick={() => void reprocess()}
                >
                  {busy === 'reprocess' ? 'Reprocessing…' : 'Reprocess'}
                </button>
              )}
            </div>
            <p className="hint" role="status" aria-live="polite" ref={noteRef} tabIndex={-1}>
              {note}
            </p>
            <h3>Text as received</h3>
            {item.content_kept ? (
              <pre className="x12-text" role="region" aria-label="Interchange text" tabIndex={0}>
                {item.segments.join('\n')}
              </pre>
            ) : (
              <p>
                Nothing of this file was kept: it was too large to read, so there is no text to show
                or download.
              </p>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
