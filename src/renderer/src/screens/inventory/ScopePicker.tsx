import type { ScopeChoice } from './useScope';

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** Labelled selects for the facility and then one of its brands. */
export function ScopePicker({ choice, disabled }: { choice: ScopeChoice; disabled: boolean }) {
  const { facilities, brands } = choice;
  const facilityList = facilities.status === 'ready' ? [...facilities.data].sort(byName) : [];
  const brandList = brands.status === 'ready' ? [...brands.data].sort(byName) : [];
  const noBrands = brands.status === 'ready' && brandList.length === 0;

  const facilityPlaceholder =
    facilities.status === 'loading'
      ? 'Loading facilities…'
      : facilityList.length === 0 && facilities.status === 'ready'
        ? 'No facilities available'
        : 'Choose a facility';
  const brandPlaceholder = !choice.facilityId
    ? 'Choose a facility first'
    : brands.status === 'loading'
      ? 'Loading brands…'
      : noBrands
        ? 'No brands at this facility'
        : 'Choose a brand';

  return (
    <fieldset className="scope-picker" disabled={disabled}>
      <legend>Where the stock is</legend>
      <div className="field">
        <label htmlFor="inventory-facility">Facility</label>
        <select
          id="inventory-facility"
          value={choice.facilityId}
          onChange={(event) => choice.chooseFacility(event.target.value)}
          aria-invalid={facilities.status === 'error' || undefined}
          aria-describedby={facilities.status === 'error' ? 'inventory-facility-error' : undefined}
        >
          <option value="">{facilityPlaceholder}</option>
          {facilityList.map((facility) => (
            <option key={facility.id} value={facility.id}>
              {facility.name}
            </option>
          ))}
        </select>
        {facilities.status === 'error' ? (
          <p id="inventory-facility-error" className="field-error" role="alert">
            Could not load facilities: {facilities.message}{' '}
            <button type="button" className="link-button" onClick={choice.reloadFacilities}>
              Retry
            </button>
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="inventory-brand">Brand</label>
        <select
          id="inventory-brand"
          value={choice.brandId}
          onChange={(event) => choice.chooseBrand(event.target.value)}
          disabled={!choice.facilityId || brands.status !== 'ready' || noBrands}
          aria-invalid={brands.status === 'error' || undefined}
          aria-describedby={brands.status === 'error' ? 'inventory-brand-error' : undefined}
        >
          <option value="">{brandPlaceholder}</option>
          {brandList.map((brand) => (
            <option key={brand.brand_id} value={brand.brand_id}>
              {brand.name}
            </option>
          ))}
        </select>
        {brands.status === 'error' ? (
          <p id="inventory-brand-error" className="field-error" role="alert">
            Could not load brands: {brands.message}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
