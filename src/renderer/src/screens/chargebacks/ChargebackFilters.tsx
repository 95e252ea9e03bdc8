import { useEffect, useState, type FormEvent } from 'react';
import { DISPUTE_STATUSES } from '../../../../shared/claims';
import {
  ClearFilters,
  DateRangeFields,
  SelectField,
  retailerChoices,
} from '../../components/FilterFields';
import { allRetailersOf, useBrandRetailers } from '../../api/lookupQueries';
import { isChargebackFiltered, toggleStatus, type ChargebacksSearch } from './chargebacksSearch';

const SETTLED_CHOICES = [
  { value: 'no', label: 'No: still open' },
  { value: 'yes', label: 'Yes: settled or expired' },
];

/** The chargeback list's filters; every change goes to the URL (and back to page 1). */
export function ChargebackFilters({
  search,
  onChange,
}: {
  search: ChargebacksSearch;
  onChange: (next: ChargebacksSearch) => void;
}) {
  const choices = useBrandRetailers();
  const retailers = allRetailersOf(choices.data ?? []);
  // The boxes hold what is typed; the list follows on Search (or Enter), not on every key.
  const [po, setPo] = useState(search.po ?? '');
  const [number, setNumber] = useState(search.number ?? '');
  useEffect(() => setPo(search.po ?? ''), [search.po]);
  useEffect(() => setNumber(search.number ?? ''), [search.number]);
  const change = (patch: Partial<ChargebacksSearch>) =>
    onChange({ ...search, ...patch, page: undefined });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ po: po.trim() || undefined, number: number.trim() || undefined });
  };

  return (
    <form className="chargebacks-filters" role="search" aria-label="Chargebacks" onSubmit={submit}>
      <div className="chargebacks-filter-row">
        <SelectField
          id="chargebacks-retailer"
          label="Retailer"
          value={search.retailer}
          anyLabel={choices.isPending ? 'Loading retailers…' : 'Any retailer'}
          options={retailerChoices(retailers)}
          onChange={(retailer) => change({ retailer })}
        />
        <div className="field">
          <label htmlFor="chargebacks-po">PO number (exact)</label>
          <input
            id="chargebacks-po"
            type="search"
            value={po}
            onChange={(event) => setPo(event.target.value)}
            placeholder="e.g. BB4500527"
          />
        </div>
        <div className="field">
          <label htmlFor="chargebacks-number">Chargeback number (exact)</label>
          <input
            id="chargebacks-number"
            type="search"
            value={number}
            onChange={(event) => setNumber(event.target.value)}
            placeholder="e.g. BBR-77120"
          />
        </div>
        <button type="submit" className="button chargebacks-search-button">
          Search
        </button>
      </div>
      <div className="chargebacks-filter-row">
        <SelectField
          id="chargebacks-settled"
          label="Settled"
          value={search.settled}
          anyLabel="Any"
          options={SETTLED_CHOICES}
          onChange={(settled) => change({ settled: settled as 'yes' | 'no' | undefined })}
        />
        <DateRangeFields
          from={{
            id: 'chargebacks-from',
            label: 'Chargeback date from',
            value: search.from,
            onChange: (from) => change({ from }),
          }}
          to={{
            id: 'chargebacks-to',
            label: 'Chargeback date to',
            value: search.to,
            onChange: (to) => change({ to }),
          }}
          errorId="chargebacks-range-error"
        />
      </div>
      <fieldset className="chargebacks-statuses">
        <legend>Dispute status (any of the checked; none checked: all)</legend>
        {DISPUTE_STATUSES.map((status) => (
          <label key={status} className="checkbox">
            <input
              type="checkbox"
              checked={search.status?.includes(status) ?? false}
              onChange={() => onChange(toggleStatus(search, status))}
            />
            {status}
          </label>
        ))}
      </fieldset>
      <ClearFilters shown={isChargebackFiltered(search)} onClear={() => onChange({})} />
    </form>
  );
}
