import { loadStateOf } from '../../api/queries';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { BillingExport } from './BillingExport';
import { BillingFilterBar } from './BillingFilterBar';
import { BillingTabs } from './BillingTabs';
import { BILLED_WORK_RULE } from './billingFormat';
import { dateRangeProblem, fixTheDates } from '../../components/dateRange';

/** The first of the two ranges (packed, ASN sent) whose start is after its end, as a sentence. */
const rangeProblemOf = (search: BillingSearch) =>
  dateRangeProblem(search.packed_from, search.packed_to) ??
  dateRangeProblem(search.asn_from, search.asn_to);
import { useInvoice, useOrderDetailsPage } from './billingQueries';
import {
  BILLING_DETAILS_PAGE_SIZE,
  filtersOf,
  isFiltered,
  type BillingSearch,
} from './billingSearch';
import { InvoiceSummary } from './InvoiceSummary';
import { OrderDetailsTable } from './OrderDetailsTable';

function OrderDetails({
  search,
  go,
}: {
  search: BillingSearch;
  go: (next: BillingSearch) => void;
}) {
  const page = search.page ?? 1;
  const query = useOrderDetailsPage(filtersOf(search), page, true);
  const state = loadStateOf(query);
  return (
    <section className="billing-details" aria-labelledby="billing-details-heading">
      <h2 id="billing-details-heading">Orders</h2>
      <Loaded
        state={state}
        onRetry={() => void query.refetch()}
        loading="Loading orders…"
        failed="Could not load the orders"
        empty={(data) =>
          emptyFirstPage(
            data.items.length,
            page,
            <p>
              {rangeProblemOf(search)
                ? fixTheDates(rangeProblemOf(search)!)
                : isFiltered(search)
                  ? 'No orders match these filters. Widen the dates, choose another brand or retailer, or choose Clear filters.'
                  : 'No orders to bill yet. Orders show here once they are entered and worked at your facilities.'}
            </p>,
          )
        }
      >
        {(data) => (
          <>
            <OrderDetailsTable
              items={data.items}
              caption={`${data.total_count} ${data.total_count === 1 ? 'order' : 'orders'}, newest first`}
            />
            <CountedPager
              label="Pages of order details"
              noun="Orders"
              nothing="No orders"
              page={page}
              pageSize={BILLING_DETAILS_PAGE_SIZE}
              shown={data.items.length}
              total={data.total_count}
              busy={query.isPlaceholderData}
              onPage={(next) => go(withPage(search, next))}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The bill per brand under the filters, the orders behind it, and its exports. */
export function BillingScreen() {
  const [search, go] = useUrlSearch('/billing');
  const filters = filtersOf(search);
  const invoiceQuery = useInvoice(filters, true);
  const invoice = loadStateOf(invoiceQuery);

  return (
    <section className="billing" aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          Billing
        </h1>
      </div>
      <BillingTabs current="summary" />
      <BillingFilterBar search={search} onChange={go} />
      <BillingExport
        invoice={invoice.status === 'ready' ? invoice.data : undefined}
        filters={filters}
      />
      <section
        className="billing-summary-section"
        aria-labelledby="billing-summary-heading"
        aria-busy={invoiceQuery.isPlaceholderData || undefined}
      >
        <h2 id="billing-summary-heading">Summary by brand</h2>
        <p className="hint" id="billing-rule">
          {BILLED_WORK_RULE}
        </p>
        <Loaded
          state={invoice}
          onRetry={() => void invoiceQuery.refetch()}
          loading="Loading the summary…"
          failed="Could not load the summary"
          empty={(data) =>
            data.brands.length > 0 ? null : (
              <p>
                {rangeProblemOf(search)
                  ? fixTheDates(rangeProblemOf(search)!)
                  : isFiltered(search)
                    ? 'Nothing to bill under these filters. Widen the dates, choose another brand, or choose Clear filters.'
                    : 'No brands to bill. Brands show here once they work at one of your facilities.'}
              </p>
            )
          }
        >
          {(data) => <InvoiceSummary invoice={data} />}
        </Loaded>
      </section>
      <OrderDetails search={search} go={go} />
    </section>
  );
}
