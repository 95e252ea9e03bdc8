import { loadStateOf } from '../../api/queries';
import { Loaded, emptyFirstPage } from '../../components/LoadStates';
import { dateRangeProblem, fixTheDates } from '../../components/dateRange';
import { CountedPager, withPage } from '../../components/Pager';
import { useUrlSearch } from '../../components/useUrlSearch';
import { localDay } from '../claims/claimsFormat';
import { useChargebackList } from '../claims/claimsQueries';
import { ColumnPicker, useColumnVisibility } from '../claims/ColumnPicker';
import { ImportCsvHeader } from '../claims/ImportCsvHeader';
import { ChargebackFilters } from './ChargebackFilters';
import {
  CHARGEBACK_COLUMNS,
  ChargebacksTable,
  DEFAULT_CHARGEBACK_VISIBILITY,
} from './ChargebacksTable';
import {
  CHARGEBACK_PAGE_SIZE,
  chargebackRequestOf,
  isChargebackFiltered,
} from './chargebacksSearch';

/** The retailers' chargebacks against the user's brands: filters and page in the URL, CSV import. */
export function ChargebacksScreen() {
  const [search, go] = useUrlSearch('/chargebacks');
  const query = useChargebackList(chargebackRequestOf(search));
  const state = loadStateOf(query);
  const page = search.page ?? 1;
  const rangeProblem = dateRangeProblem(search.from, search.to);
  const [visibility, setVisibility] = useColumnVisibility(
    'chargebacks.columns',
    CHARGEBACK_COLUMNS,
    DEFAULT_CHARGEBACK_VISIBILITY,
  );
  const today = localDay();

  return (
    <section className="chargebacks" aria-labelledby="screen-title">
      <ImportCsvHeader
        title="Chargebacks"
        kind="chargebacks"
        panelTitle="Import chargebacks from a CSV file"
      />
      <ChargebackFilters search={search} onChange={go} />
      <Loaded
        state={state}
        onRetry={() => void query.refetch()}
        loading="Loading chargebacks…"
        failed="Could not load chargebacks"
        empty={(data) =>
          emptyFirstPage(
            data.items.length,
            page,
            rangeProblem ? (
              <p>{fixTheDates(rangeProblem)}</p>
            ) : isChargebackFiltered(search) ? (
              <p>
                No chargebacks match these filters. Change them, or choose{' '}
                <strong>Clear filters</strong>.
              </p>
            ) : (
              <p>
                No chargebacks yet. Choose <strong>Import CSV</strong> and upload the chargeback
                export from the retailer&apos;s portal.
              </p>
            ),
          )
        }
      >
        {(data) => (
          <>
            <ColumnPicker
              columns={CHARGEBACK_COLUMNS}
              visibility={visibility}
              onChange={setVisibility}
            />
            <div aria-busy={query.isPlaceholderData || undefined}>
              <ChargebacksTable
                chargebacks={data.items}
                caption={`${data.total_count} ${data.total_count === 1 ? 'chargeback' : 'chargebacks'}`}
                today={today}
                visibility={visibility}
              />
            </div>
            <CountedPager
              label="Pages of chargebacks"
              noun="Chargebacks"
              nothing="Nothing"
              page={page}
              pageSize={CHARGEBACK_PAGE_SIZE}
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
