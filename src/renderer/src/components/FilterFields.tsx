import type { ReactNode } from 'react';
import { dateRangeProblem } from './dateRange';

export interface Choice {
  value: string;
  label: string;
}

/** A labelled select whose empty first option means "any"; the choice goes out at once. */
export function SelectField({
  id,
  label,
  value,
  anyLabel,
  options,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
  /** The empty option, e.g. `Any retailer` (or `Loading retailers…` while they load). */
  anyLabel: string;
  options: readonly Choice[];
  onChange: (value: string | undefined) => void;
  /** Shown under the select, e.g. why the choices could not load. */
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}

/** A labelled date input; an empty box means no date. */
export function DateField({
  id,
  label,
  value,
  onChange,
  errorId,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** The message saying what is wrong with the date; the input is then marked invalid. */
  errorId?: string;
  /** Shown under the input, e.g. that message. */
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={value ?? ''}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        onChange={(event) => onChange(event.target.value || undefined)}
      />
      {children}
    </div>
  );
}

/** One end of a date range: its input's id and label, its date and what a change does. */
export interface RangeEnd {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/**
 * A from and a to date. While from is after to, both inputs are marked invalid and the problem
 * (with id `errorId`) shows under the to date, announced at once.
 */
export function DateRangeFields({
  from,
  to,
  errorId,
}: {
  from: RangeEnd;
  to: RangeEnd;
  errorId: string;
}) {
  const problem = dateRangeProblem(from.value, to.value);
  const describedBy = problem ? errorId : undefined;
  return (
    <>
      <DateField {...from} errorId={describedBy} />
      <DateField {...to} errorId={describedBy}>
        {problem ? (
          <p id={errorId} className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
      </DateField>
    </>
  );
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** Facilities as choices, A to Z. */
export function facilityChoices(facilities: readonly { id: string; name: string }[]): Choice[] {
  return [...facilities]
    .sort(byName)
    .map((facility) => ({ value: facility.id, label: facility.name }));
}

/** Retailers as choices, in the order given. */
export function retailerChoices(
  retailers: readonly { retailer_id: string; name: string }[],
): Choice[] {
  return retailers.map((retailer) => ({ value: retailer.retailer_id, label: retailer.name }));
}

/** Brands as choices, in the order given. */
export function brandChoices(brands: readonly { brand_id: string; name: string }[]): Choice[] {
  return brands.map((brand) => ({ value: brand.brand_id, label: brand.name }));
}

/** Shown while any filter narrows the list: back to the whole list. */
export function ClearFilters({ shown, onClear }: { shown: boolean; onClear: () => void }) {
  return shown ? (
    <button type="button" className="link-button clear-filters" onClick={onClear}>
      Clear filters
    </button>
  ) : null;
}
