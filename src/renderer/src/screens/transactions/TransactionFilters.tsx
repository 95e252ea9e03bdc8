import { useEffect, useState, type FormEvent } from 'react';
import {
  ACTION_TYPE_LABELS,
  ACTION_TYPES,
  EXECUTION_STATUSES,
  TRANSACTION_LIMITS,
} from '../../../../shared/transactions';
import { loadStateOf } from '../../api/queries';
import { useFacilities, useAllRetailers, useAllBrands } from '../../api/lookupQueries';
import {
  ClearFilters,
  DateRangeFields,
  SelectField,
  brandChoices,
  facilityChoices,
  retailerChoices,
} from '../../components/FilterFields';
import { STATUS_LABELS } from './transactionLabels';
import { isFiltered, type TransactionSearch } from './transactionSearch';
import { UUID_TEXT } from '../../../../shared/ids';

export interface Typed {
  q: string;
  transaction: string;
  order: string;
  po: string;
}
const typedOf = (search: TransactionSearch): Typed => ({
  q: search.q ?? '',
  transaction: search.transaction ?? '',
  order: search.order ?? '',
  po: search.po ?? '',
});

/** What an id looks like, for whoever wants the detail (behind a Details toggle). */
const ID_FORM =
  'IDs are 36 characters: the digits 0-9, the letters a-f and four dashes, like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b (a UUID).';

/** Problems with what was typed, per field, before anything is asked of the service. */
export function problemsOf(typed: Typed): Partial<Record<keyof Typed, string>> {
  const problems: Partial<Record<keyof Typed, string>> = {};
  const q = typed.q.trim();
  if (q !== '' && q.length < TRANSACTION_LIMITS.searchMin) {
    problems.q = `Type at least ${TRANSACTION_LIMITS.searchMin} characters.`;
  }
  if (typed.transaction.trim() !== '' && !UUID_TEXT.test(typed.transaction.trim())) {
    problems.transaction =
      'That is not a transaction ID. Copy it from a transaction’s details (open its row).';
  }
  if (typed.order.trim() !== '' && !UUID_TEXT.test(typed.order.trim())) {
    problems.order =
      'That is not an order ID. To find an order by its PO number or picksheet code, use Search.';
  }
  return problems;
}

/** Every filter of the log; choices apply at once, typed ones on Search (or Enter). */
export function TransactionFilters({
  search,
  onChange,
}: {
  search: TransactionSearch;
  onChange: (next: TransactionSearch) => void;
}) {
  const facilities = loadStateOf(useFacilities());
  const brands = loadStateOf(useAllBrands());
  const retailers = loadStateOf(useAllRetailers());
  const [typed, setTyped] = useState<Typed>(() => typedOf(search));
  const [problems, setProblems] = useState<Partial<Record<keyof Typed, string>>>({});
  // What the URL says wins (back, forward, Clear filters, a link).
  const { q, transaction, order, po } = search;
  useEffect(() => setTyped(typedOf({ q, transaction, order, po })), [q, transaction, order, po]);
  const change = (patch: Partial<TransactionSearch>) =>
    onChange({ ...search, ...patch, page: undefined, open: undefined });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problemsOf(typed);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    change({
      q: typed.q.trim() || undefined,
      transaction: typed.transaction.trim().toLowerCase() || undefined,
      order: typed.order.trim().toLowerCase() || undefined,
      po: typed.po.trim() || undefined,
    });
  };
  const textField = (key: keyof Typed, label: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={`transactions-${key}`}>{label}</label>
      <input
        id={`transactions-${key}`}
        type={key === 'q' ? 'search' : 'text'}
        value={typed[key]}
        placeholder={placeholder}
        aria-invalid={problems[key] ? true : undefined}
        aria-describedby={problems[key] ? `transactions-${key}-error` : undefined}
        onChange={(event) => setTyped({ ...typed, [key]: event.target.value })}
      />
      {problems[key] ? (
        <div id={`transactions-${key}-error`} className="field-error">
          <p>{problems[key]}</p>
          {key === 'transaction' || key === 'order' ? (
            <details>
              <summary>Details</summary>
              {ID_FORM}
            </details>
          ) : null}
        </div>
      ) : null}
    </div>
  );

  return (
    <form
      className="order-filters transaction-filters"
      role="search"
      aria-label="Transactions"
      onSubmit={submit}
    >
      {textField('q', 'Search', 'ID, error or URL part')}
      {textField('transaction', 'Transaction ID', 'e.g. 6f1c2a3b-4d5e-…')}
      {textField('order', 'Order ID', 'e.g. 6f1c2a3b-4d5e-…')}
      {textField('po', 'PO number', 'e.g. BB4500157')}
      <div className="field">
        <span className="label-spacer" aria-hidden="true">
          &nbsp;
        </span>
        <button type="submit" className="button">
          Search
        </button>
      </div>
      <SelectField
        id="transactions-status"
        label="Status"
        value={search.status}
        anyLabel="Any status"
        options={EXECUTION_STATUSES.map((status) => ({
          value: status,
          label: STATUS_LABELS[status],
        }))}
        onChange={(value) => change({ status: value as TransactionSearch['status'] })}
      />
      <SelectField
        id="transactions-action"
        label="Action"
        value={search.action}
        anyLabel="Any action"
        options={ACTION_TYPES.map((code) => ({ value: code, label: ACTION_TYPE_LABELS[code] }))}
        onChange={(value) => change({ action: value as TransactionSearch['action'] })}
      />
      <SelectField
        id="transactions-error"
        label="Errors"
        value={search.error}
        anyLabel="With or without"
        options={[
          { value: 'true', label: 'With an error' },
          { value: 'false', label: 'Without an error' },
        ]}
        onChange={(value) => change({ error: value as TransactionSearch['error'] })}
      />
      <SelectField
        id="transactions-facility"
        label="Facility"
        value={search.facility}
        anyLabel={facilities.status === 'loading' ? 'Loading facilities…' : 'Any facility'}
        options={facilities.status === 'ready' ? facilityChoices(facilities.data) : []}
        onChange={(value) => change({ facility: value })}
      />
      <SelectField
        id="transactions-brand"
        label="Brand"
        value={search.brand}
        anyLabel={brands.status === 'loading' ? 'Loading brands…' : 'Any brand'}
        options={brands.status === 'ready' ? brandChoices(brands.data) : []}
        onChange={(value) => change({ brand: value })}
      />
      <SelectField
        id="transactions-retailer"
        label="Retailer"
        value={search.retailer}
        anyLabel={retailers.status === 'loading' ? 'Loading retailers…' : 'Any retailer'}
        options={retailers.status === 'ready' ? retailerChoices(retailers.data) : []}
        onChange={(value) => change({ retailer: value })}
      />
      <DateRangeFields
        from={{
          id: 'transactions-from',
          label: 'Created from',
          value: search.from,
          onChange: (from) => change({ from }),
        }}
        to={{
          id: 'transactions-to',
          label: 'Created to',
          value: search.to,
          onChange: (to) => change({ to }),
        }}
        errorId="transactions-range-error"
      />
      <ClearFilters
        shown={isFiltered(search)}
        onClear={() => onChange({ sort: search.sort, dir: search.dir })}
      />
    </form>
  );
}
