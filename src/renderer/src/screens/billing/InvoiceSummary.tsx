import { Link } from '@tanstack/react-router';
import type { Invoice, InvoiceBrand } from '../../../../shared/billing';
import { formatDollars, metricLabel } from './billingFormat';

function BrandSummary({ brand }: { brand: InvoiceBrand }) {
  const headingId = `billing-brand-${brand.brand_id}`;
  const priced = brand.line_items.length + brand.action_items.length > 0;
  return (
    <section className="panel billing-brand" aria-labelledby={headingId}>
      <h3 id={headingId}>{brand.brand_name}</h3>
      {priced ? (
        <div className="table-scroll">
          <table className="data-table billing-lines">
            <caption className="visually-hidden">Billing lines of {brand.brand_name}</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col" className="numeric">
                  Count
                </th>
                <th scope="col" className="numeric">
                  Unit price
                </th>
                <th scope="col" className="numeric">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {brand.line_items.map((line) => (
                <tr key={line.metric}>
                  <th scope="row">{metricLabel(line.metric)}</th>
                  <td className="numeric">{line.count.toLocaleString()}</td>
                  <td className="numeric">{formatDollars(line.unit_price_dollars)}</td>
                  <td className="numeric">{formatDollars(line.price_dollars)}</td>
                </tr>
              ))}
              {brand.action_items.map((action) => (
                <tr key={`${action.type}|${action.metric}`}>
                  <th scope="row">
                    {action.metric} <span className="hint">({action.type})</span>
                  </th>
                  <td className="numeric">{action.count.toLocaleString()}</td>
                  <td className="numeric">{formatDollars(action.unit_price_dollars)}</td>
                  <td className="numeric">{formatDollars(action.price_dollars)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Total for {brand.brand_name}
                </th>
                <td className="numeric billing-amount">
                  {formatDollars(brand.total_price_dollars)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      ) : (
        <p className="hint">
          No prices are set for this brand, so nothing is billed. Set them under{' '}
          <Link to="/billing/prices" search={{ brand: brand.brand_id }}>
            Prices
          </Link>
          .
        </p>
      )}
    </section>
  );
}

/** The bill per brand with its lines and actions, and the total over all brands. */
export function InvoiceSummary({ invoice }: { invoice: Invoice }) {
  return (
    <div className="billing-summary">
      <p className="billing-total" role="status">
        Total for all brands: <strong>{formatDollars(invoice.total_price_dollars)}</strong>
      </p>
      <div className="billing-brands">
        {invoice.brands.map((brand) => (
          <BrandSummary key={brand.brand_id} brand={brand} />
        ))}
      </div>
    </div>
  );
}
