import { useEffect, useRef } from 'react';
import { loadStateOf } from '../../api/queries';
import { useFacilities, useAllRetailers, useAllBrands } from '../../api/lookupQueries';
import { dateRangeProblem, fixTheDates } from '../../components/dateRange';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { TransactionDrawer } from './TransactionDrawer';
import { TransactionFilters } from './TransactionFilters';
import { useTransactionList } from './transactionQueries';
import {
  TRANSACTION_PAGE_SIZE,
  isFiltered,
  listRequestOf,
  searchAfterSort,
  sortOf,
} from './transactionSearch';
import { TransactionsTable, type NameLookup } from './TransactionsTable';

/** Names of the facilities, brands and retailers the user sees; an id it cannot name shows as is. */
function useNames(): NameLookup {
  const facilities = useFacilities().data ?? [];
  const brands = useAllBrands().data ?? [];
  const retailers = useAllRetailers().data ?? [];
  const lookup = (pairs: [string, string][]) => {
    const names = new Map(pairs);
    return (id: string | null) => (id === null ? '—' : (names.get(id) ?? id));
  };
  return {
    facility: lookup(facilities.map((f) => [f.id, f.name])),
    brand: lookup(brands.map((b) => [b.brand_id, b.name])),
    retailer: lookup(retailers.map((r) => [r.retailer_id, r.name])),
  };
}

/** The transaction log: every filter, search, sort, page and the open row live in the URL. */
export function TransactionsScreen() {
  const [search, go] = useUrlSearch('/transactions');
  // A start after the end matches nothing: the filter says so next to the dates, nothing is asked.
  const rangeProblem = dateRangeProblem(search.from, search.to);
  const query = useTransactionList(listRequestOf(search), !rangeProblem);
  const state = loadStateOf(query);
  const names = useNames();
  const page = search.page ?? 1;
  const onPage = state.status === 'ready' ? state.data.transactions : [];
  const openOnPage = onPage.find((t) => t.transaction_id === search.open);
  // A reload with a row open that is not on this page asks for that row alone.
  const openQuery = useTransactionList(
    { transaction_id: search.open, page_size: '1' },
    Boolean(search.open) && state.status === 'ready' && !openOnPage,
  );
  const open = openOnPage ?? openQuery.data?.transactions[0];
  const heading = useRef<HTMLHeadingElement>(null);
  // The row whose details were closed: once the dialog is gone, its button gets the focus back.
  const closedRow = useRef<string | null>(null);
  useEffect(() => {
    const id = closedRow.current;
    if (search.open || id === null) return;
    closedRow.current = null;
    const opener = document.querySelector<HTMLElement>(`[data-opens-transaction="${id}"]`);
    (opener ?? heading.current)?.focus();
  }, [search.open]);

  return (
    <section className="transactions" aria-labelledby="transactions-heading">
      <div className="screen-header">
        <h1 id="transactions-heading" tabIndex={-1} ref={heading}>
          Transaction log
        </h1>
      </div>
      <TransactionFilters search={search} onChange={go} />
      {rangeProblem ? (
        <p>{fixTheDates(rangeProblem)}</p>
      ) : (
        <Loaded
          state={state}
          onRetry={() => void query.refetch()}
          loading="Loading transactions…"
          failed="Could not load transactions"
          empty={(data) =>
            emptyFirstPage(
              data.transactions.length,
              page,
              isFiltered(search) ? (
                <p>
                  No transactions match these filters. Widen the dates, pick another status or
                  action, or choose <strong>Clear filters</strong>.
                </p>
              ) : (
                <p>
                  No transactions yet. Inventory advice deliveries and order writes are logged here
                  as they happen.
                </p>
              ),
            )
          }
        >
          {(data) => (
            <>
              <TransactionsTable
                transactions={data.transactions}
                caption={`${data.total_count} ${data.total_count === 1 ? 'transaction' : 'transactions'}`}
                names={names}
                sort={sortOf(search)}
                onSort={(field) => go(searchAfterSort(search, field))}
                onOpen={(id) => go({ ...search, open: id })}
                busy={query.isPlaceholderData}
              />
              <CountedPager
                label="Pages of transactions"
                noun="Transactions"
                nothing="No transactions"
                page={page}
                pageSize={TRANSACTION_PAGE_SIZE}
                shown={data.transactions.length}
                total={data.total_count}
                busy={query.isPlaceholderData}
                onPage={(next) => go({ ...withPage(search, next), open: undefined })}
              />
            </>
          )}
        </Loaded>
      )}
      {open ? (
        <TransactionDrawer
          key={open.transaction_id}
          transaction={open}
          names={names}
          onClose={() => {
            closedRow.current = open.transaction_id;
            go({ ...search, open: undefined });
          }}
        />
      ) : null}
    </section>
  );
}
