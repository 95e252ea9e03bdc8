import { loadStateOf } from '../../api/queries';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { dateRangeProblem, fixTheDates } from '../../components/dateRange';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { usePosChartRows, usePosPage } from '../claims/claimsQueries';
import { ColumnPicker, useColumnVisibility } from '../claims/ColumnPicker';
import { ImportCsvHeader } from '../claims/ImportCsvHeader';
import { seriesByDate } from './posChart';
import { PosChart } from './PosChart';
import { PosFilters } from './PosFilters';
import {
  POS_PAGE_SIZE,
  isPosFiltered,
  posFilterOf,
  posRequestOf,
  type PosSearch,
} from './posSearch';
import { DEFAULT_POS_VISIBILITY, POS_COLUMNS, PosTable } from './PosTable';

function ChartPanel({ search }: { search: PosSearch }) {
  const query = usePosChartRows(posFilterOf(search));
  const state = loadStateOf(query);
  if (state.status === 'ready') {
    return (
      <PosChart
        points={seriesByDate(state.data.rows)}
        partial={state.data.rows.length < state.data.total}
      />
    );
  }
  return (
    <div className="pos-chart">
      {state.status === 'error' ? (
        <p className="field-error" role="alert">
          Could not load the chart: {state.message}{' '}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Retry
          </button>
        </p>
      ) : (
        <p role="status">Loading the chart…</p>
      )}
    </div>
  );
}

/** Retailers' point-of-sale reports: a chart over time beside a paged table, CSV import. */
export function PosScreen() {
  const [search, go] = useUrlSearch('/pos');
  const query = usePosPage(posRequestOf(search));
  const state = loadStateOf(query);
  const page = search.page ?? 1;
  const rangeProblem = dateRangeProblem(search.from, search.to);
  const [visibility, setVisibility] = useColumnVisibility(
    'pos.columns',
    POS_COLUMNS,
    DEFAULT_POS_VISIBILITY,
  );

  return (
    <section className="pos" aria-labelledby="screen-title">
      <ImportCsvHeader
        title="POS reports"
        kind="pos"
        panelTitle="Import POS rows from a CSV file"
      />
      <PosFilters search={search} onChange={go} />
      <Loaded
        state={state}
        onRetry={() => void query.refetch()}
        loading="Loading POS reports…"
        failed="Could not load POS reports"
        empty={(data) =>
          emptyFirstPage(
            data.items.length,
            page,
            rangeProblem ? (
              <p>{fixTheDates(rangeProblem)}</p>
            ) : isPosFiltered(search) ? (
              <p>
                No POS rows match these filters. Widen the dates, choose another retailer, or choose{' '}
                <strong>Clear filters</strong>.
              </p>
            ) : (
              <p>
                No POS reports yet. Choose <strong>Import CSV</strong> and upload the weekly sales
                export from the retailer&apos;s portal.
              </p>
            ),
          )
        }
      >
        {(data) => (
          <div className="pos-layout">
            <ChartPanel search={search} />
            <div className="pos-list">
              <ColumnPicker
                columns={POS_COLUMNS}
                visibility={visibility}
                onChange={setVisibility}
              />
              <div aria-busy={query.isPlaceholderData || undefined}>
                <PosTable
                  rows={data.items}
                  caption={`${data.total_count} POS ${data.total_count === 1 ? 'row' : 'rows'}`}
                  visibility={visibility}
                />
              </div>
              <CountedPager
                label="Pages of POS rows"
                noun="Rows"
                nothing="Nothing"
                page={page}
                pageSize={POS_PAGE_SIZE}
                shown={data.items.length}
                total={data.total_count}
                busy={query.isPlaceholderData}
                onPage={(next) => go(withPage(search, next))}
              />
            </div>
          </div>
        )}
      </Loaded>
    </section>
  );
}
