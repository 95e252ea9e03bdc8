import type { VisibilityState } from '@tanstack/react-table';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { loadStateOf } from '../../api/queries';
import { useFacilities } from '../../api/lookupQueries';
import { SelectField, facilityChoices } from '../../components/FilterFields';
import { Loaded } from '../../components/LoadStates';
import { Pager } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { useColumnVisibility } from '../claims/ColumnPicker';
import { AnalyticsTable } from './AnalyticsTable';
import { ANALYTICS_COLUMNS, COLUMN_STORAGE_KEY, DEFAULT_VISIBILITY } from './analyticsColumns';
import { useAnalyticsPage } from './analyticsQueries';
import {
  ANALYTICS_ROWS_PER_PAGE,
  hasNextPage,
  searchForFacility,
  searchForOrder,
  searchForPage,
  type AnalyticsSearch,
} from './analyticsSearch';

/** Where the shown rows sit; the service does not count the facility's orders. */
function pageHint(page: number, shown: number): string {
  const first = (page - 1) * ANALYTICS_ROWS_PER_PAGE + 1;
  return shown > 0 ? `Orders ${first}–${first + shown - 1} (page ${page}).` : `Page ${page}.`;
}

/** The column toggles; the choice stays on this workstation. */
function ColumnToggles({
  visibility,
  onChange,
}: {
  visibility: VisibilityState;
  onChange: (next: VisibilityState) => void;
}) {
  return (
    <details className="analytics-columns">
      <summary>Columns</summary>
      <fieldset>
        <legend className="visually-hidden">Columns to show</legend>
        {ANALYTICS_COLUMNS.map((column) => (
          <label key={column.id} className="checkbox">
            <input
              type="checkbox"
              checked={visibility[column.id] !== false}
              onChange={(event) => onChange({ ...visibility, [column.id]: event.target.checked })}
            />
            {column.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

function Filters({ search, go }: { search: AnalyticsSearch; go: (next: AnalyticsSearch) => void }) {
  const facilities = loadStateOf(useFacilities());
  // The box holds what is typed; the table follows on Show (or Enter).
  const [text, setText] = useState(search.order ?? '');
  useEffect(() => setText(search.order ?? ''), [search.order]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go(searchForOrder(search, text));
  };

  return (
    <form
      className="order-filters analytics-filters"
      role="search"
      aria-label="Analytics"
      onSubmit={submit}
    >
      <SelectField
        id="analytics-facility"
        label="Facility"
        value={search.facility}
        anyLabel={facilities.status === 'loading' ? 'Loading facilities…' : 'Choose a facility'}
        options={facilities.status === 'ready' ? facilityChoices(facilities.data) : []}
        onChange={(facility) => go(searchForFacility(facility))}
      >
        {facilities.status === 'error' ? (
          <p className="field-error" role="alert">
            Could not load facilities: {facilities.message}
          </p>
        ) : null}
      </SelectField>
      <div className="field">
        <label htmlFor="analytics-order">Order number, PO number or order ID</label>
        <div className="inline-input">
          <input
            id="analytics-order"
            type="search"
            value={text}
            disabled={!search.facility}
            placeholder="e.g. PS-SUM-2611001 or BB4500157"
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="button" disabled={!search.facility}>
            Show
          </button>
        </div>
      </div>
      {search.order ? (
        <button
          type="button"
          className="link-button clear-filters"
          onClick={() => go(searchForOrder(search, ''))}
        >
          Show all orders
        </button>
      ) : null}
    </form>
  );
}

/** Orders analytics per facility: counts of each order's work, ten orders a page. */
export function AnalyticsScreen() {
  const [search, go] = useUrlSearch('/analytics');
  const page = search.page ?? 1;
  const query = useAnalyticsPage(
    search.facility ? { facilityId: search.facility, page, order: search.order } : null,
  );
  const state = loadStateOf(query, !!search.facility);
  const facilities = useFacilities();
  // Opening the screen without a facility shows the user's first one (the service lists them by
  // name), once: choosing "Choose a facility" afterwards is respected. The address is replaced,
  // so Back does not return to the empty screen.
  const navigate = useNavigate({ from: '/analytics' });
  const defaulted = useRef(false);
  const firstFacility = facilities.data?.[0]?.id;
  useEffect(() => {
    if (defaulted.current || !firstFacility) return;
    defaulted.current = true;
    if (!search.facility) {
      void navigate({ search: searchForFacility(firstFacility), replace: true });
    }
  }, [firstFacility, search.facility, navigate]);
  const facilityName =
    facilities.data?.find((facility) => facility.id === search.facility)?.name ?? 'this facility';
  const [visibility, changeVisibility] = useColumnVisibility(
    COLUMN_STORAGE_KEY,
    ANALYTICS_COLUMNS,
    DEFAULT_VISIBILITY,
  );

  const showPager =
    state.status === 'ready' &&
    state.data.unknownCode === null &&
    !search.order &&
    (page > 1 || hasNextPage(state.data.rows.length));

  return (
    <section className="analytics" aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          Analytics
        </h1>
      </div>
      <Filters search={search} go={go} />
      <Loaded
        state={state}
        onRetry={() => void query.refetch()}
        loading="Loading analytics…"
        failed="Could not load analytics"
        idle={
          <p>
            Choose a <strong>facility</strong> to see its orders with their cartons, pallets, units,
            labels and value-added services.
          </p>
        }
        empty={(data) =>
          data.unknownCode !== null ? (
            <p>
              No order with the number or PO <strong>{data.unknownCode}</strong> at {facilityName}.
              Check the number (the picksheet code or the PO number), or choose{' '}
              <strong>Show all orders</strong>.
            </p>
          ) : data.rows.length > 0 ? null : page > 1 ? (
            <p>
              No more orders after page {page - 1}. Choose <strong>Previous page</strong>.
            </p>
          ) : search.order ? (
            <p>
              No order with this ID at {facilityName}. Check the ID, or choose{' '}
              <strong>Show all orders</strong>.
            </p>
          ) : (
            <p>
              {facilityName} has no orders yet. Orders show here once they are entered on the Orders
              screen or imported; or choose another facility.
            </p>
          )
        }
      >
        {(data) => (
          <>
            <ColumnToggles visibility={visibility} onChange={changeVisibility} />
            <AnalyticsTable
              rows={data.rows}
              caption={`Orders at ${facilityName}, newest first`}
              visibility={visibility}
              busy={query.isPlaceholderData}
            />
          </>
        )}
      </Loaded>
      {showPager && state.status === 'ready' ? (
        <Pager
          label="Pages of analytics"
          hint={pageHint(page, state.data.rows.length)}
          page={page}
          hasNext={hasNextPage(state.data.rows.length)}
          busy={query.isPlaceholderData}
          onPage={(next) => go(searchForPage(search, next))}
        />
      ) : null}
    </section>
  );
}
