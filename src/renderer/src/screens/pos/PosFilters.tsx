import {
  ClearFilters,
  DateRangeFields,
  SelectField,
  retailerChoices,
} from '../../components/FilterFields';
import { allRetailersOf, useBrandRetailers } from '../../api/lookupQueries';
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
      <DateRangeFields
        from={{
          id: 'pos-from',
          label: 'Periods starting from',
          value: search.from,
          onChange: (from) => change({ from }),
        }}
        to={{
          id: 'pos-to',
          label: 'Periods ending by',
          value: search.to,
          onChange: (to) => change({ to }),
        }}
        errorId="pos-range-error"
      />
      <ClearFilters shown={isPosFiltered(search)} onClear={() => onChange({})} />
    </form>
  );
}
