import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useBlocker } from '@tanstack/react-router';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  get,
  useFieldArray,
  useForm,
  type FieldErrors,
  type Path,
  type Resolver,
} from 'react-hook-form';
import {
  INVOICE_LINE_METRICS,
  type BillingPrices,
  type BillingPricesBody,
} from '../../../../shared/billing';
import { ACTION_TYPES } from '../../../../shared/fulfilment-activity';
import { loadStateOf } from '../../api/queries';
import { SelectField, brandChoices } from '../../components/FilterFields';
import { Loaded } from '../../components/LoadStates';
import { useUrlSearch } from '../../components/useUrlSearch';
import { useAnnounce } from '../../status/StatusContext';
import { saveProblemsOf } from '../../forms/saveProblems';
import { useAllBrands } from '../../api/lookupQueries';
import { BillingTabs } from './BillingTabs';
import { metricLabel } from './billingFormat';
import { useBillingPrices, useSaveBillingPrices } from './billingQueries';
import {
  emptyActionRow,
  formValuesOf,
  priceFieldMessage,
  pricePathsOf,
  pricesFormSchema,
  saveRefusalText,
  type PricesFormValues,
} from './pricesForm';

const LEAVE_QUESTION = 'These prices have unsaved changes. Leave and discard them?';

/** `id`s for inputs: metric names have spaces. */
const idOf = (path: string) => `prices-${path.replace(/[^\w]+/g, '-')}`;

function errorAt(
  errors: FieldErrors<PricesFormValues>,
  path: string,
  field: 'type' | 'metric' | 'price',
): string | undefined {
  const error = get(errors, path) as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? priceFieldMessage(field, error.message) : undefined;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="field-error cell-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** The prices of one brand: per-metric unit prices and priced actions. */
function PricesForm({ prices }: { prices: BillingPrices }) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    reset,
    getValues,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<PricesFormValues, unknown, BillingPricesBody>({
    defaultValues: formValuesOf(prices),
    // The form holds text; the shared schema reads it through pricesFormSchema's preprocess.
    resolver: zodResolver(pricesFormSchema) as unknown as Resolver<
      PricesFormValues,
      unknown,
      BillingPricesBody
    >,
    // Checked on Save, then as the clerk corrects (a check on leaving a field would move the
    // Save button under the pointer as messages appear).
    mode: 'onSubmit',
    // Focus goes to the first field in error in the page's order (see below).
    shouldFocusError: false,
  });
  const actions = useFieldArray({ control, name: 'actions' });
  const save = useSaveBillingPrices();
  const announce = useAnnounce();
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const formMessageRef = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);

  // After a refused submit, the first field in error (top to bottom) takes the focus. It runs
  // after every render: react-hook-form keeps one errors object, so no dependency would change.
  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  useBlocker({
    shouldBlockFn: () => isDirty && !window.confirm(LEAVE_QUESTION),
    enableBeforeUnload: () => isDirty,
  });

  // A new or removed row takes the focus once it is on the page.
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    pendingFocus.current = null;
    if (index < actions.fields.length) setFocus(`actions.${index}.type`);
    else addButton.current?.focus();
  }, [actions.fields, setFocus]);

  const addAction = () => {
    pendingFocus.current = actions.fields.length;
    actions.append(emptyActionRow(), { shouldFocus: false });
  };
  const removeAction = (index: number) => {
    pendingFocus.current = index < actions.fields.length - 1 ? index : actions.fields.length - 1;
    actions.remove(index);
  };
  // Enter in an action row goes to the next row, adding one after the last.
  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    event.preventDefault();
    if (index === actions.fields.length - 1) addAction();
    else setFocus(`actions.${index + 1}.type`);
  };

  const onValid = async (body: BillingPricesBody) => {
    setFormMessage(null);
    setSavedNote(false);
    try {
      const saved = await save.mutateAsync({ brandId: prices.brand_id, body });
      reset(formValuesOf(saved));
      setSavedNote(true);
      announce(`Prices of ${saved.brand_name} saved.`);
    } catch (error) {
      const problems = saveProblemsOf(error, pricePathsOf(getValues()));
      for (const problem of problems.fields) {
        setError(problem.path as Path<PricesFormValues>, { message: problem.message });
      }
      focusFirstError.current = problems.fields.length > 0;
      const isRefusal = problems.fields.length === 0;
      setFormMessage(isRefusal ? saveRefusalText(error, prices.brand_name) : problems.formMessage);
      if (problems.fields.length === 0) formMessageRef.current?.focus();
    }
  };
  const onInvalid = () => {
    setSavedNote(false);
    focusFirstError.current = true;
  };

  const saving = save.isPending || isSubmitting;
  return (
    <form
      className="billing-prices-form"
      aria-label={`Prices of ${prices.brand_name}`}
      noValidate
      ref={formRef}
      onSubmit={(event) => void handleSubmit(onValid, onInvalid)(event)}
    >
      <div ref={formMessageRef} tabIndex={-1}>
        {formMessage ? (
          <p className="form-error" role="alert">
            {formMessage}
          </p>
        ) : null}
        {savedNote && !isDirty ? (
          <p className="notice" role="status">
            Saved. The <Link to="/billing">summary</Link> uses these prices now.
          </p>
        ) : null}
      </div>

      <fieldset className="form-section">
        <legend>Unit prices (dollars)</legend>
        <p className="hint">Leave a price blank to not bill that metric.</p>
        <div className="billing-metric-grid">
          {INVOICE_LINE_METRICS.map((metric) => {
            const path = `prices.${metric}` as const;
            const id = idOf(path);
            const error = errorAt(errors, path, 'price');
            return (
              <div className="field" key={metric}>
                <label htmlFor={id}>{metricLabel(metric)}</label>
                <input
                  id={id}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="not billed"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  {...register(path)}
                />
                <FieldError id={id} message={error} />
              </div>
            );
          })}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Action prices (dollars each)</legend>
        <p className="hint">
          Enter in an action row moves to the next row, adding one after the last.
        </p>
        {actions.fields.length === 0 ? (
          <p className="hint">No priced actions. Choose Add action to price one (e.g. Pack).</p>
        ) : (
          <div className="table-scroll">
            <table className="data-table billing-action-rows">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Type</th>
                  <th scope="col">Action</th>
                  <th scope="col">Price</th>
                  <th scope="col">
                    <span className="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {actions.fields.map((row, index) => {
                  const typePath = `actions.${index}.type` as const;
                  const metricPath = `actions.${index}.metric` as const;
                  const pricePath = `actions.${index}.price_dollars` as const;
                  const typeError = errorAt(errors, typePath, 'type');
                  const metricError = errorAt(errors, metricPath, 'metric');
                  const priceError = errorAt(errors, pricePath, 'price');
                  return (
                    <tr key={row.id} onKeyDown={(event) => onRowKeyDown(event, index)}>
                      <th scope="row">{index + 1}</th>
                      <td>
                        <select
                          id={idOf(typePath)}
                          aria-label={`Type, action ${index + 1}`}
                          aria-invalid={typeError ? true : undefined}
                          aria-describedby={typeError ? `${idOf(typePath)}-error` : undefined}
                          {...register(typePath)}
                        >
                          <option value="">Choose…</option>
                          {ACTION_TYPES.map((type) => (
                            <option key={type} value={type}>
                              {type}
                            </option>
                          ))}
                        </select>
                        <FieldError id={idOf(typePath)} message={typeError} />
                      </td>
                      <td>
                        <input
                          id={idOf(metricPath)}
                          className="cell-input"
                          aria-label={`Action name, action ${index + 1}`}
                          placeholder="e.g. Pack"
                          aria-invalid={metricError ? true : undefined}
                          aria-describedby={metricError ? `${idOf(metricPath)}-error` : undefined}
                          {...register(metricPath)}
                        />
                        <FieldError id={idOf(metricPath)} message={metricError} />
                      </td>
                      <td>
                        <input
                          id={idOf(pricePath)}
                          className="cell-input"
                          inputMode="decimal"
                          autoComplete="off"
                          aria-label={`Price, action ${index + 1}`}
                          aria-invalid={priceError ? true : undefined}
                          aria-describedby={priceError ? `${idOf(pricePath)}-error` : undefined}
                          {...register(pricePath)}
                        />
                        <FieldError id={idOf(pricePath)} message={priceError} />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          aria-label={`Remove action ${index + 1}`}
                          onClick={() => removeAction(index)}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <button type="button" className="button" ref={addButton} onClick={addAction}>
          Add action
        </button>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save prices'}
        </button>
        <button
          type="button"
          className="button"
          disabled={!isDirty || saving}
          onClick={() => {
            reset();
            setFormMessage(null);
          }}
        >
          Discard changes
        </button>
      </div>
    </form>
  );
}

/** Billing prices per brand: pick a brand, edit, save. */
export function PricesScreen() {
  const [search, go] = useUrlSearch('/billing/prices');
  const brands = loadStateOf(useAllBrands());
  const pricesQuery = useBillingPrices(search.brand);
  const prices = loadStateOf(pricesQuery, !!search.brand);

  return (
    <section className="billing" aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          Billing prices
        </h1>
      </div>
      <BillingTabs current="prices" />
      <div className="order-filters">
        <SelectField
          id="prices-brand"
          label="Brand"
          value={search.brand}
          anyLabel={brands.status === 'loading' ? 'Loading brands…' : 'Choose a brand'}
          options={brands.status === 'ready' ? brandChoices(brands.data) : []}
          onChange={(brand) => go({ brand })}
        />
      </div>
      <Loaded
        state={prices}
        onRetry={() => void pricesQuery.refetch()}
        loading="Loading prices…"
        failed="Could not load the prices"
        idle={
          <p>
            Choose a <strong>brand</strong> to see and change what it is billed per order, pallet,
            carton, unit, label and action.
          </p>
        }
      >
        {(data) => <PricesForm key={data.brand_id} prices={data} />}
      </Loaded>
    </section>
  );
}
