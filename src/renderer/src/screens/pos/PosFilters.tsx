import {
  ClearFilters,
  DateField,
  SelectField,
  retailerChoices,
} from '../../components/FilterFields';
import { allRetailersOf, useBrandRetailers } from '../claims/claimsQueries';
import { dateRangeProblem } from '../../components/dateRange';
import { isPosFiltered, type PosSearch } from './posSearch';

/** Retailer and reporting dates; every change goes to the URL (and back to page 1). */
export function PosFilters({
  search,
  onChange,
}: {
  search: PosSearch;
  onChange: (next: PosSearch) => void;
}) {
  const choices = useBrandRetailers();
  const retailers = allRetailersOf(choices.data ?? []);
  const change = (patch: Partial<PosSearch>) => onChange({ ...search, ...patch, page: undefined });
  const rangeProblem = dateRangeProblem(search.from, search.to);
  const errorId = rangeProblem ? 'pos-range-error' : undefined;

  return (
    <form
      className="pos-filters"
      role="search"
      aria-label="POS reports"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        id="pos-retailer"
        label="Retailer"
        value={search.retailer}
        anyLabel={choices.isPending ? 'Loading retailers…' : 'Any retailer'}
        options={retailerChoices(retailers)}
        onChange={(retailer) => change({ retailer })}
      />
      <DateField
        id="pos-from"
        label="Periods starting from"
        value={search.from}
        errorId={errorId}
        onChange={(from) => change({ from })}
      />
      <DateField
        id="pos-to"
        label="Periods ending by"
        value={search.to}
        errorId={errorId}
        onChange={(to) => change({ to })}
      />
      {rangeProblem ? (
        <p id="pos-range-error" className="field-error" role="alert">
          {rangeProblem}
        </p>
      ) : null}
      <ClearFilters shown={isPosFiltered(search)} onClear={() => onChange({})} />
    </form>
  );
}
