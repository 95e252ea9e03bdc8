import { Link } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import {
  ORDER_STATUSES,
  orderListQuerySchema,
  type DueFilter,
  type OrderStatus,
} from '../../../../shared/orders';
import { maxLengthAt } from '../../../../shared/schema-limits';
import { loadStateOf } from '../../api/queries';
import { useFacilities, useAllRetailers } from '../../api/lookupQueries';
import {
  ClearFilters,
  DateRangeFields,
  SelectField,
  facilityChoices,
  retailerChoices,
} from '../../components/FilterFields';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { useOrderList } from './orderQueries';
import {
  ORDER_PAGE_SIZE,
  isFiltered,
  listRequestOf,
  searchAfterSort,
  sortOf,
  type OrderListSearch,
} from './orderSearch';
import { OrdersTable } from './OrdersTable';
import { SHIP_BY_MEANING } from './ShipBy';

const DUE_CHOICES: { value: DueFilter; label: string }[] = [
  { value: 'today_or_late', label: 'Due today or late' },
  { value: 'today', label: 'Due today' },
  { value: 'late', label: 'Late' },
];

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
            maxLength={maxLengthAt(orderListQuerySchema, 'search')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="e.g. PO-4500123"
          />
          <button type="submit" className="button">
            Search
          </button>
        </div>
      </div>
      <SelectField
        id="orders-status"
        label="Status"
        value={search.status}
        anyLabel="Any status"
        options={ORDER_STATUSES.map((status) => ({ value: status, label: status }))}
        onChange={(status) => change({ status: status as OrderStatus | undefined })}
      />
      <SelectField
        id="orders-due"
        label="Due"
        value={search.due}
        anyLabel="Any ship-by date"
        options={DUE_CHOICES}
        onChange={(due) =>
          // Late orders read best oldest first, unless the clerk chose a sort.
          change({
            due: due as DueFilter | undefined,
            ...(due && !search.sort ? { sort: 'ship_by' as const, dir: 'asc' as const } : {}),
          })
        }
      />
      <DateRangeFields
        from={{
          id: 'orders-ship-from',
          label: 'Ship by from',
          value: search.shipFrom,
          onChange: (shipFrom) => change({ shipFrom }),
        }}
        to={{
          id: 'orders-ship-to',
          label: 'Ship by to',
          value: search.shipTo,
          onChange: (shipTo) => change({ shipTo }),
        }}
        errorId="orders-ship-range-error"
      />
      <SelectField
        id="orders-facility"
        label="Facility"
        value={search.facility}
        anyLabel={facilities.status === 'loading' ? 'Loading facilities…' : 'Any facility'}
        options={facilities.status === 'ready' ? facilityChoices(facilities.data) : []}
        onChange={(facility) => change({ facility })}
      />
      <SelectField
        id="orders-retailer"
        label="Retailer"
        value={search.retailer}
        anyLabel={retailers.status === 'loading' ? 'Loading retailers…' : 'Any retailer'}
        options={retailers.status === 'ready' ? retailerChoices(retailers.data) : []}
        onChange={(retailer) => change({ retailer })}
      />
      <ClearFilters
        shown={isFiltered(search)}
        onClear={() => onChange({ sort: search.sort, dir: search.dir })}
      />
    </form>
  );
}

/** The orders the user can see: search, filters, sort and page all live in the URL. */
export function OrdersScreen() {
  const [search, go] = useUrlSearch('/orders');
  const query = useOrderList(listRequestOf(search));
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
      <p className="hint">{SHIP_BY_MEANING}</p>
      <Loaded
        state={loadStateOf(query)}
        onRetry={() => void query.refetch()}
        loading="Loading orders…"
        failed="Could not load orders"
        empty={(data) =>
          emptyFirstPage(
            data.orders.length,
            page,
            isFiltered(search) ? (
              <p>
                No orders match these filters. Search for another PO number or picksheet code, or
                choose <strong>Clear filters</strong>.
              </p>
            ) : (
              <p>
                No orders yet. Choose <strong>New order</strong> to enter one, or import a seed
                bundle that holds orders.
              </p>
            ),
          )
        }
      >
        {(data) => (
          <>
            <OrdersTable
              orders={data.orders}
              caption={`${data.total_count} ${data.total_count === 1 ? 'order' : 'orders'}`}
              sort={sortOf(search)}
              onSort={(field) => go(searchAfterSort(search, field))}
              busy={query.isPlaceholderData}
            />
            <CountedPager
              label="Pages of orders"
              noun="Orders"
              nothing="No orders"
              page={page}
              pageSize={ORDER_PAGE_SIZE}
              shown={data.orders.length}
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
