import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { ORDER_STATUSES, type OrderStatus } from '../../../../shared/orders';
import { loadStateOf, useFacilities } from '../../api/queries';
import { useAllRetailers, useOrderList } from './orderQueries';
import {
  ORDER_PAGE_SIZE,
  isFiltered,
  listRequestOf,
  searchAfterSort,
  sortOf,
  type OrderListSearch,
} from './orderSearch';
import { OrdersTable } from './OrdersTable';

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

function Filters({
  search,
  onChange,
}: {
  search: OrderListSearch;
  onChange: (next: OrderListSearch) => void;
}) {
  const facilities = loadStateOf(useFacilities());
  const retailers = loadStateOf(useAllRetailers());
  // The box holds what is typed; the list follows on Search (or Enter), not on every key.
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);
  const change = (patch: Partial<OrderListSearch>) =>
    onChange({ ...search, ...patch, page: undefined });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ q: text.trim() || undefined });
  };

  return (
    <form className="order-filters" role="search" aria-label="Orders" onSubmit={submit}>
      <div className="field order-search">
        <label htmlFor="orders-search">PO number or picksheet code</label>
        <div className="inline-input">
          <input
            id="orders-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="e.g. PO-4500123"
          />
          <button type="submit" className="button">
            Search
          </button>
        </div>
      </div>
      <div className="field">
        <label htmlFor="orders-status">Status</label>
        <select
          id="orders-status"
          value={search.status ?? ''}
          onChange={(event) =>
            change({ status: (event.target.value || undefined) as OrderStatus | undefined })
          }
        >
          <option value="">Any status</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="orders-facility">Facility</label>
        <select
          id="orders-facility"
          value={search.facility ?? ''}
          onChange={(event) => change({ facility: event.target.value || undefined })}
        >
          <option value="">
            {facilities.status === 'loading' ? 'Loading facilities…' : 'Any facility'}
          </option>
          {facilities.status === 'ready'
            ? [...facilities.data].sort(byName).map((facility) => (
                <option key={facility.id} value={facility.id}>
                  {facility.name}
                </option>
              ))
            : null}
        </select>
      </div>
      <div className="field">
        <label htmlFor="orders-retailer">Retailer</label>
        <select
          id="orders-retailer"
          value={search.retailer ?? ''}
          onChange={(event) => change({ retailer: event.target.value || undefined })}
        >
          <option value="">
            {retailers.status === 'loading' ? 'Loading retailers…' : 'Any retailer'}
          </option>
          {retailers.status === 'ready'
            ? retailers.data.map((retailer) => (
                <option key={retailer.retailer_id} value={retailer.retailer_id}>
                  {retailer.name}
                </option>
              ))
            : null}
        </select>
      </div>
      {isFiltered(search) ? (
        <button
          type="button"
          className="link-button clear-filters"
          onClick={() => onChange({ sort: search.sort, dir: search.dir })}
        >
          Clear filters
        </button>
      ) : null}
    </form>
  );
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
  const first = (page - 1) * ORDER_PAGE_SIZE + 1;
  const pages = Math.max(1, Math.ceil(total / ORDER_PAGE_SIZE));
  return (
    <nav className="pager" aria-label="Pages of orders" aria-busy={busy || undefined}>
      <p className="hint">
        {shown > 0
          ? `Orders ${first}–${first + shown - 1} of ${total} (page ${page} of ${pages}).`
          : `No orders on page ${page} (${total} in all).`}
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

/** The orders the user can see: search, filters, sort and page all live in the URL. */
export function OrdersScreen() {
  const search = useSearch({ from: '/orders' });
  const navigate = useNavigate({ from: '/orders' });
  const go = (next: OrderListSearch) => void navigate({ search: next });
  const query = useOrderList(listRequestOf(search));
  const state = loadStateOf(query);
  const page = search.page ?? 1;

  return (
    <section className="orders" aria-labelledby="orders-heading">
      <div className="screen-header">
        <h1 id="orders-heading" tabIndex={-1}>
          Orders
        </h1>
        <Link to="/orders/new" className="button primary">
          New order
        </Link>
      </div>
      <Filters search={search} onChange={go} />
      {state.status === 'loading' || state.status === 'idle' ? (
        <p className="state-message" role="status">
          Loading orders…
        </p>
      ) : state.status === 'error' ? (
        <div className="state-message error" role="alert">
          <p>Could not load orders: {state.message}</p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            Retry
          </button>
        </div>
      ) : state.data.orders.length === 0 && page === 1 ? (
        <div className="state-message empty">
          {isFiltered(search) ? (
            <p>
              No orders match these filters. Search for another PO number or picksheet code, or
              choose <strong>Clear filters</strong>.
            </p>
          ) : (
            <p>
              No orders yet. Choose <strong>New order</strong> to enter one, or import a seed bundle
              that holds orders.
            </p>
          )}
        </div>
      ) : (
        <>
          <OrdersTable
            orders={state.data.orders}
            caption={`${state.data.total_count} ${state.data.total_count === 1 ? 'order' : 'orders'}`}
            sort={sortOf(search)}
            onSort={(field) => go(searchAfterSort(search, field))}
            busy={query.isPlaceholderData}
          />
          <Pager
            page={page}
            shown={state.data.orders.length}
            total={state.data.total_count}
            busy={query.isPlaceholderData}
            onPage={(next) => go({ ...search, page: next > 1 ? next : undefined })}
          />
        </>
      )}
    </section>
  );
}
