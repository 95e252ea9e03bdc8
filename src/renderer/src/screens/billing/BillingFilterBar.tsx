import { TRANSPORTATION_METHODS } from '../../../../shared/billing';
import { loadStateOf } from '../../api/queries';
import {
  ClearFilters,
  DateRangeFields,
  brandChoices,
  SelectField,
  retailerChoices,
} from '../../components/FilterFields';
import { useAllRetailers, useAllBrands } from '../../api/lookupQueries';
import {
  isFiltered,
  searchWithFilter,
  type BillingFilters,
  type BillingSearch,
} from './billingSearch';

const METHOD_LABELS: Record<(typeof TRANSPORTATION_METHODS)[number], string> = {
  FREIGHT: 'Freight',
  PARCEL: 'Parcel',
};

/** The bill's filters; each applies at once and lives in the URL. */
export function BillingFilterBar({
  search,
  onChange,
}: {
  search: BillingSearch;
  onChange: (next: BillingSearch) => void;
}) {
  const brands = loadStateOf(useAllBrands());
  const retailers = loadStateOf(useAllRetailers());
  const change = (patch: BillingFilters) => onChange(searchWithFilter(search, patch));

  return (
    <form
      className="order-filters billing-filters"
      role="search"
      aria-label="Billing filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        id="billing-brand"
        label="Brand"
        value={search.brand}
        anyLabel={brands.status === 'loading' ? 'Loading brands…' : 'Every brand'}
        options={brands.status === 'ready' ? brandChoices(brands.data) : []}
        onChange={(brand) => change({ brand })}
      />
      <SelectField
        id="billing-retailer"
        label="Retailer"
        value={search.retailer}
        anyLabel={retailers.status === 'loading' ? 'Loading retailers…' : 'Every retailer'}
        options={retailers.status === 'ready' ? retailerChoices(retailers.data) : []}
        onChange={(retailer) => change({ retailer })}
      />
      <SelectField
        id="billing-method"
        label="Transportation method"
        value={search.method}
        anyLabel="Freight and parcel"
        options={TRANSPORTATION_METHODS.map((method) => ({
          value: method,
          label: METHOD_LABELS[method],
        }))}
        onChange={(method) => change({ method: method as BillingFilters['method'] })}
      />
      <DateRangeFields
        from={{
          id: 'billing-packed-from',
          label: 'Packed from',
          value: search.packed_from,
          onChange: (packed_from) => change({ packed_from }),
        }}
        to={{
          id: 'billing-packed-to',
          label: 'Packed to',
          value: search.packed_to,
          onChange: (packed_to) => change({ packed_to }),
        }}
        errorId="billing-packed-to-error"
      />
      <DateRangeFields
        from={{
          id: 'billing-asn-from',
          label: 'ASN sent from',
          value: search.asn_from,
          onChange: (asn_from) => change({ asn_from }),
        }}
        to={{
          id: 'billing-asn-to',
          label: 'ASN sent to',
          value: search.asn_to,
          onChange: (asn_to) => change({ asn_to }),
        }}
        errorId="billing-asn-to-error"
      />
      <ClearFilters shown={isFiltered(search)} onClear={() => onChange({})} />
    </form>
  );
}
