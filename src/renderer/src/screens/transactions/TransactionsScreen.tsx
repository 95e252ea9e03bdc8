import { useNavigate, useSearch } from '@tanstack/react-router';
import { loadStateOf, useFacilities } from '../../api/queries';
import { useAllRetailers } from '../orders/orderQueries';
import { TransactionDrawer } from './TransactionDrawer';
import { TransactionFilters } from './TransactionFilters';
import { useAllBrands, useTransactionList } from './transactionQueries';
import {
  TRANSACTION_PAGE_SIZE,
  isFiltered,
  listRequestOf,
  searchAfterSort,
  sortOf,
  type TransactionSearch,
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

function Pager({
  page,
  shown,
  total,
  busy,
  onPage,
}: {
  page: number;
  shown: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const first = (page - 1) * TRANSACTION_PAGE_SIZE + 1;
  const pages = Math.max(1, Math.ceil(total / TRANSACTION_PAGE_SIZE));
  return (
    <nav className="pager" aria-label="Pages of transactions" aria-busy={busy || undefined}>
      <p className="hint">
        {shown > 0
          ? `Transactions ${first}–${first + shown - 1} of ${total} (page ${page} of ${pages}).`
          : `No transactions on page ${page} (${total} in all).`}
      </p>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous page
      </button>
      <button
        type="button"
        className="button"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

/** The transaction log: every filter, search, sort, page and the open row live in the URL. */
export function TransactionsScreen() {
  const search = useSearch({ from: '/transactions' });
  const navigate = useNavigate({ from: '/transactions' });
  const go = (next: TransactionSearch) => void navigate({ search: next });
  const query = useTransactionList(listRequestOf(search));
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

  return (
    <section className="transactions" aria-labelledby="transactions-heading">
      <div className="screen-header">
        <h1 id="transactions-heading" tabIndex={-1}>
          Transaction log
        </h1>
      </div>
      <TransactionFilters search={search} onChange={go} />
      {state.status === 'loading' || state.status === 'idle' ? (
        <p className="state-message" role="status">
          Loading transactions…
        </p>
      ) : state.status === 'error' ? (
        <div className="state-message error" role="alert">
          <p>Could not load transactions: {state.message}</p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            Retry
          </button>
        </div>
      ) : state.data.transactions.length === 0 && page === 1 ? (
        <div className="state-message empty">
          {isFiltered(search) ? (
            <p>
              No transactions match these filters. Widen the dates, pick another status or action,
              or choose <strong>Clear filters</strong>.
            </p>
          ) : (
            <p>
              No transactions yet. Inventory advice deliveries and order writes are logged here as
              they happen.
            </p>
          )}
        </div>
      ) : (
        <>
          <TransactionsTable
            transactions={state.data.transactions}
            caption={`${state.data.total_count} ${state.data.total_count === 1 ? 'transaction' : 'transactions'}`}
            names={names}
            sort={sortOf(search)}
            onSort={(field) => go(searchAfterSort(search, field))}
            onOpen={(id) => go({ ...search, open: id })}
            busy={query.isPlaceholderData}
          />
          <Pager
            page={page}
            shown={state.data.transactions.length}
            total={state.data.total_count}
            busy={query.isPlaceholderData}
            onPage={(next) => go({ ...search, page: next > 1 ? next : undefined, open: undefined })}
          />
        </>
      )}
      {open ? (
        <TransactionDrawer
          key={open.transaction_id}
          transaction={open}
          names={names}
          onClose={() => go({ ...search, open: undefined })}
        />
      ) : null}
    </section>
  );
}
