import type { AdvicePreview, PreviewConnection } from '../../api/inventory';
import { ClerkText } from './ClerkText';
import { deliveryErrorWords } from '../../format/deliveryErrorWords';
import { readableDocument } from './documentFormat';
import { downloadText } from './download';
import { formatTime, kindLabel } from './labels';
import { plural } from '../../format/plural';

/** At most this many SKUs are listed per change; the rest are counted. */
const LISTED = 20;

function SkuList({ skus }: { skus: string[] }) {
  const shown = skus.slice(0, LISTED);
  return (
    <>
      {shown.map((sku, i) => (
        <span key={sku}>
          {i > 0 ? ', ' : null}
          <code>{sku}</code>
        </span>
      ))}
      {skus.length > LISTED ? ` and ${skus.length - LISTED} more` : null}
    </>
  );
}

function Changes({ connection }: { connection: PreviewConnection }) {
  const { changes, baseline } = connection;
  const retailer = connection.retailer_name ?? 'the retailer';
  if (!baseline) {
    return (
      <p>
        First snapshot for this connection: {plural(changes.added_skus.length, 'SKU')} will be
        listed.
      </p>
    );
  }
  const none =
    changes.dropped_skus.length +
      changes.new_zero_skus.length +
      changes.big_swings.length +
      changes.added_skus.length ===
    0;
  return (
    <>
      <p className="hint">Compared with the snapshot sent {formatTime(baseline.created_at)}.</p>
      {none ? <p>No SKUs dropped, added, going to 0 or swinging sharply.</p> : null}
      <ul className="changes">
        {changes.dropped_skus.length > 0 ? (
          <li className="warning">
            <strong>
              Warning: {plural(changes.dropped_skus.length, 'SKU')} missing from this file will
              vanish at {retailer}:
            </strong>{' '}
            <SkuList skus={changes.dropped_skus} />
          </li>
        ) : null}
        {changes.new_zero_skus.length > 0 ? (
          <li>
            <strong>{plural(changes.new_zero_skus.length, 'SKU')} going to 0:</strong>{' '}
            <SkuList skus={changes.new_zero_skus} />
          </li>
        ) : null}
        {changes.big_swings.length > 0 ? (
          <li>
            <strong>{plural(changes.big_swings.length, 'big swing')}:</strong>{' '}
            {changes.big_swings.slice(0, LISTED).map((swing, i) => (
              <span key={swing.sku}>
                {i > 0 ? ', ' : null}
                <code>{swing.sku}</code> {swing.previous} → {swing.next}
              </span>
            ))}
            {changes.big_swings.length > LISTED
              ? ` and ${changes.big_swings.length - LISTED} more`
              : null}
          </li>
        ) : null}
        {changes.added_skus.length > 0 ? (
          <li>
            <strong>{plural(changes.added_skus.length, 'SKU')} added:</strong>{' '}
            <SkuList skus={changes.added_skus} />
          </li>
        ) : null}
      </ul>
    </>
  );
}

function ConnectionPreview({ connection }: { connection: PreviewConnection }) {
  const retailer = connection.retailer_name ?? 'Unknown retailer';
  return (
    <li className="card">
      <h3>
        {retailer} <span className="badge">{kindLabel(connection.kind)}</span>
      </h3>
      {connection.organization_name ? (
        <p className="hint">Through {connection.organization_name}</p>
      ) : null}
      {connection.error ? (
        <p className="form-error">
          <ClerkText message={deliveryErrorWords(connection.error, 'file')} />
        </p>
      ) : (
        <Changes connection={connection} />
      )}
      {connection.document ? (
        <details className="document">
          <summary>
            Show document for {retailer} ({connection.document.file_name})
          </summary>
          <pre role="region" tabIndex={0} aria-label={`Document for ${retailer}`}>
            {readableDocument(connection.document.body, connection.document.content_type)}
          </pre>
          <button
            type="button"
            className="button"
            onClick={() => {
              const document = connection.document!;
              downloadText(`preview-${document.file_name}`, document.body, document.content_type);
            }}
          >
            Download document for {retailer}
          </button>
        </details>
      ) : null}
    </li>
  );
}

/** What a send would deliver to each connection, and how that changes what retailers see. */
export function PreviewPanel({ preview }: { preview: AdvicePreview }) {
  return (
    <section className="panel" aria-labelledby="inventory-preview-heading">
      <h2 id="inventory-preview-heading">Preview</h2>
      <p>
        {plural(preview.item_count, 'SKU')} would go to{' '}
        {plural(preview.connections.length, 'connection')}. Nothing has been sent yet.
      </p>
      <ul className="cards">
        {preview.connections.map((connection) => (
          <ConnectionPreview key={connection.connection_id} connection={connection} />
        ))}
      </ul>
    </section>
  );
}
