import type { AdviceOutcome, AdviceResult } from '../../api/inventory';

export interface DocumentRequest {
  deliveryId: string;
  title: string;
}

function ResultRow({
  result,
  onViewDocument,
}: {
  result: AdviceResult;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const retailer = result.retailer_name ?? 'Unknown retailer';
  return (
    <tr>
      <th scope="row">{retailer}</th>
      <td>{result.organization_name ?? '—'}</td>
      <td className={result.success ? 'status-ok' : 'status-failed'}>
        {result.success ? '✓ Sent' : '✗ Failed'}
      </td>
      <td>{result.error ?? ''}</td>
      <td>
        <button
          type="button"
          className="button"
          aria-label={`View document for ${retailer}`}
          onClick={() =>
            onViewDocument({
              deliveryId: result.delivery_id,
              title: result.success
                ? `Document sent to ${retailer}`
                : `Document for ${retailer} (not delivered)`,
            })
          }
        >
          View document
        </button>
      </td>
    </tr>
  );
}

/** One row per connection of a finished send, with the service's summary message. */
export function SendResults({
  outcome,
  onViewDocument,
}: {
  outcome: AdviceOutcome;
  onViewDocument: (request: DocumentRequest) => void;
}) {
  const { summary, results } = outcome.data;
  const tone = outcome.status === 200 ? 'success' : outcome.status === 207 ? 'warning' : 'error';
  return (
    <section className="panel" aria-labelledby="inventory-results-heading">
      <h2 id="inventory-results-heading">Send results</h2>
      <p className={`outcome ${tone}`} role={tone === 'success' ? 'status' : 'alert'}>
        {outcome.message}
        <span className="outcome-summary">
          {' '}
          ({summary.succeeded} of {summary.total} delivered)
        </span>
      </p>
      <div className="table-scroll">
        <table className="data-table">
          <caption>One result per retailer connection</caption>
          <thead>
            <tr>
              <th scope="col">Retailer</th>
              <th scope="col">Organisation</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Document</th>
            </tr>
          </thead>
          <tbody>
            {results.map((result) => (
              <ResultRow key={result.delivery_id} result={result} onViewDocument={onViewDocument} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
