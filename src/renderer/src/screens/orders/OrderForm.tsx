import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useBlocker, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  get,
  useFieldArray,
  useForm,
  type FieldErrors,
  type Path,
  type Resolver,
  type UseFormRegister,
} from 'react-hook-form';
import {
  ITEM_EDITABLE_STATUSES,
  ORDER_DATE_FIELDS,
  createOrderBodySchema,
  updateOrderBodySchema,
  type CreateOrderBody,
  type OrderDetails,
  type UpdateOrderBody,
} from '../../../../shared/orders';
import { TRANSPORTATION_METHODS } from '../../../../shared/billing';
import { maxLengthAt } from '../../../../shared/schema-limits';
import { FormField, invalidProps } from '../../components/FormMessages';
import { TextField } from '../../components/TextField';
import { loadStateOf } from '../../api/queries';
import { useBrands, useFacilities, useRetailers } from '../../api/lookupQueries';
import { useAnnounce } from '../../status/StatusContext';
import { useCreateOrder, useUpdateOrder } from './orderQueries';
import {
  BILL_TO_FIELDS,
  MARK_FOR_FIELDS,
  SHIP_TO_FIELDS,
  emptyItem,
  fieldPathsOf,
  type OrderFormValues,
} from './orderFormValues';
import { fieldMessage } from '../../format/fieldMessage';
import { saveProblemsOf } from '../../forms/saveProblems';

type SavedBody = CreateOrderBody | UpdateOrderBody;
type Register = UseFormRegister<OrderFormValues>;

/** The question asked before unsaved changes are thrown away. */
export const LEAVE_QUESTION = 'This order has unsaved changes. Leave and discard them?';

const CONTACT_LABELS: Record<string, string> = {
  name: 'Name',
  address_line1: 'Address line 1',
  address_line2: 'Address line 2',
  city: 'City',
  province: 'Province or state',
  state: 'State',
  country: 'Country',
  zip: 'ZIP or postal code',
  facility_code: 'Facility code',
  dc_number: 'DC number',
  address_number: 'Address number',
  email: 'E-mail',
};

const DATE_LABELS: Record<(typeof ORDER_DATE_FIELDS)[number], string> = {
  requested_ship_date: 'Requested ship date',
  earliest_ship_date: 'Earliest ship date',
  latest_ship_date: 'Latest ship date',
  stage_by: 'Stage by',
  cancel_by_date: 'Cancel by',
  requested_delivery_date: 'Requested delivery date',
  earliest_delivery_date: 'Earliest delivery date',
  latest_delivery_date: 'Latest delivery date',
};

/** The message react-hook-form holds for `path`, if any. */
function errorAt(errors: FieldErrors<OrderFormValues>, path: string): string | undefined {
  const error = get(errors, path) as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? fieldMessage(error.message) : undefined;
}

/** Every message in react-hook-form's errors, as `path: message; ...`. */
function problemsText(errors: FieldErrors<OrderFormValues>): string {
  const found: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    const { message } = node as { message?: unknown };
    if (typeof message === 'string') found.push(`${path}: ${message}`);
    for (const [key, child] of Object.entries(node)) {
      if (key !== 'ref' && key !== 'message' && key !== 'type') {
        walk(child, path ? `${path}.${key}` : key);
      }
    }
  };
  walk(errors, '');
  return found.join('; ');
}

/** `id`s for inputs: dots are awkward in CSS selectors. */
const idOf = (path: string) => `order-${path.replace(/\./g, '-')}`;

/** The longest text the service takes at `path` (create and update bodies agree on lengths). */
const maxLengthOf = (path: string) => maxLengthAt(createOrderBodySchema, path);

function Field({
  path,
  label,
  register,
  errors,
  type,
}: {
  path: Path<OrderFormValues>;
  label: string;
  register: Register;
  errors: FieldErrors<OrderFormValues>;
  type?: string;
}) {
  return (
    <TextField
      id={idOf(path)}
      label={label}
      type={type}
      maxLength={type === 'date' ? undefined : maxLengthOf(path)}
      registration={register(path)}
      error={errorAt(errors, path)}
    />
  );
}

/** Values the service understands; the compliance rules and packing read PARCEL and FREIGHT. */
const TRANSPORTATION_LABELS: Record<(typeof TRANSPORTATION_METHODS)[number], string> = {
  FREIGHT: 'Freight (on pallets)',
  PARCEL: 'Parcel (loose cartons)',
};

/**
 * Transportation method as a choice. A stored value outside the two (an EDI import may carry
 * another) stays a choice of its own, so an edit does not silently change it.
 */
function TransportationMethod({
  register,
  errors,
  stored,
}: {
  register: Register;
  errors: FieldErrors<OrderFormValues>;
  stored: string;
}) {
  const id = idOf('transportation_method');
  const error = errorAt(errors, 'transportation_method');
  const known = (TRANSPORTATION_METHODS as readonly string[]).includes(stored);
  return (
    <FormField id={id} label="Transportation method" error={error}>
      <select id={id} {...invalidProps(id, error)} {...register('transportation_method')}>
        <option value="">Not given (ships on pallets)</option>
        {TRANSPORTATION_METHODS.map((method) => (
          <option key={method} value={method}>
            {TRANSPORTATION_LABELS[method]}
          </option>
        ))}
        {stored && !known ? <option value={stored}>{stored} (as received)</option> : null}
      </select>
    </FormField>
  );
}

function Select({
  path,
  label,
  register,
  errors,
  placeholder,
  options,
  disabled,
  value,
}: {
  path: 'facility_id' | 'brand_id' | 'retailer_id';
  label: string;
  /** The current choice ('' when none). */
  value: string;
  register: Register;
  errors: FieldErrors<OrderFormValues>;
  placeholder: string;
  options: { value: string; label: string }[];
  disabled?: boolean;
}) {
  // The schema's words for a blank id ("Invalid UUID") mean nothing chosen yet.
  const stated = errorAt(errors, path);
  const error = stated && !value ? `Choose a ${label.toLowerCase()}.` : stated;
  const id = idOf(path);
  return (
    <FormField id={id} label={label} error={error}>
      <select id={id} disabled={disabled} {...invalidProps(id, error)} {...register(path)}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FormField>
  );
}

const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);

/** Facility, then one of its brands, then a retailer connected to that brand (create only). */
function ScopeFields({
  register,
  errors,
  facilityId,
  brandId,
  retailerId,
}: {
  register: Register;
  errors: FieldErrors<OrderFormValues>;
  facilityId: string;
  brandId: string;
  retailerId: string;
}) {
  const facilities = loadStateOf(useFacilities());
  const brands = loadStateOf(useBrands(facilityId), facilityId !== '');
  const retailers = loadStateOf(
    useRetailers(facilityId, brandId),
    facilityId !== '' && brandId !== '',
  );
  const placeholder = (state: { status: string }, what: string, first?: string) =>
    first ?? (state.status === 'loading' ? `Loading ${what}s…` : `Choose a ${what}`);
  return (
    <fieldset className="form-section">
      <legend>Who and where</legend>
      <div className="form-grid">
        <Select
          path="facility_id"
          value={facilityId}
          label="Facility"
          register={register}
          errors={errors}
          placeholder={placeholder(facilities, 'facility')}
          options={
            facilities.status === 'ready'
              ? facilities.data.map((f) => ({ value: f.id, label: f.name })).sort(byLabel)
              : []
          }
        />
        <Select
          path="brand_id"
          value={brandId}
          label="Brand"
          register={register}
          errors={errors}
          disabled={facilityId === ''}
          placeholder={placeholder(
            brands,
            'brand',
            facilityId === '' ? 'Choose a facility first' : undefined,
          )}
          options={
            brands.status === 'ready'
              ? brands.data.map((b) => ({ value: b.brand_id, label: b.name })).sort(byLabel)
              : []
          }
        />
        <Select
          path="retailer_id"
          value={retailerId}
          label="Retailer"
          register={register}
          errors={errors}
          disabled={brandId === ''}
          placeholder={placeholder(
            retailers,
            'retailer',
            brandId === '' ? 'Choose a brand first' : undefined,
          )}
          options={
            retailers.status === 'ready'
              ? retailers.data.map((r) => ({ value: r.retailer_id, label: r.name })).sort(byLabel)
              : []
          }
        />
      </div>
    </fieldset>
  );
}

const ITEM_COLUMNS = [
  { field: 'sku', label: 'SKU' },
  { field: 'upc', label: 'UPC' },
  { field: 'quantity', label: 'Quantity' },
  { field: 'case_pack_quantity', label: 'Case pack' },
  { field: 'case_barcode', label: 'Case barcode' },
  { field: 'vendor_pn', label: 'Vendor part' },
  { field: 'description', label: 'Description' },
] as const;

/** A number input's value: blank is "not given" (undefined or null), anything else a number. */
const numberOrBlank = (blank: null | undefined) => (value: unknown) =>
  value === '' || value === null || value === undefined ? blank : Number(value);

export interface OrderFormProps {
  mode: 'create' | 'edit';
  initial: OrderFormValues;
  /** The stored order when editing. */
  order?: OrderDetails;
}

/** Create or edit an order; checked with the service's own schema before it is sent. */
export function OrderForm({ mode, initial, order }: OrderFormProps) {
  const itemsEditable =
    mode === 'create' || (order ? ITEM_EDITABLE_STATUSES.includes(order.status) : false);
  const schema = mode === 'create' ? createOrderBodySchema : updateOrderBodySchema;
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    setError,
    setFocus,
    getValues,
    formState,
  } = useForm<OrderFormValues, unknown, SavedBody>({
    defaultValues: initial,
    // The form's values are the schema's input (text inputs hold strings, a blank is "not
    // given"); the schema's own types are wider than the form's, hence the cast.
    resolver: zodResolver(schema) as unknown as Resolver<OrderFormValues, unknown, SavedBody>,
    mode: 'onTouched',
    // Focus goes to the first field in error in the page's order (see below), which
    // react-hook-form's own choice does not follow once there are item rows.
    shouldFocusError: false,
  });
  const { errors, isDirty, isSubmitting, submitCount } = formState;
  const items = useFieldArray({ control, name: 'items' });
  const create = useCreateOrder();
  const update = useUpdateOrder();
  const navigate = useNavigate();
  const announce = useAnnounce();
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const formMessageRef = useRef<HTMLDivElement>(null);
  const saved = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const pendingFocus = useRef<number | null>(null);

  const facilityId = watch('facility_id');
  const brandId = watch('brand_id');
  const retailerId = watch('retailer_id');
  // A brand belongs to a facility and a retailer to a brand: a change upstream clears them.
  const previousScope = useRef({ facilityId, brandId });
  useEffect(() => {
    if (mode !== 'create') return;
    if (previousScope.current.facilityId !== facilityId) {
      setValue('brand_id', '', { shouldDirty: true });
      setValue('retailer_id', '', { shouldDirty: true });
    } else if (previousScope.current.brandId !== brandId) {
      setValue('retailer_id', '', { shouldDirty: true });
    }
    previousScope.current = { facilityId, brandId };
  }, [mode, facilityId, brandId, setValue]);

  // A new or removed row takes the focus once it is on the page.
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    pendingFocus.current = null;
    if (index < items.fields.length) setFocus(`items.${index}.sku`);
    else addButton.current?.focus();
  }, [items.fields, setFocus]);

  // After a rejected submit, the first field in error (top to bottom) takes the focus. It runs
  // when a submit ends (react-hook-form counts one in the render that shows its errors): the
  // errors are no dependency, as react-hook-form keeps one errors object.
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);
  const unplacedProblems = useRef<string | null>(null);
  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid) {
      invalid.focus();
    } else if (unplacedProblems.current) {
      // A problem with no input of its own must still be said.
      setFormMessage(unplacedProblems.current);
      formMessageRef.current?.focus();
    }
  }, [submitCount]);

  useBlocker({
    shouldBlockFn: () => isDirty && !saved.current && !window.confirm(LEAVE_QUESTION),
    enableBeforeUnload: () => isDirty && !saved.current,
  });

  const addItem = (at = items.fields.length) => {
    pendingFocus.current = at;
    items.insert(at, emptyItem(), { shouldFocus: false });
  };
  const removeItem = (index: number) => {
    pendingFocus.current = index < items.fields.length - 1 ? index : items.fields.length;
    items.remove(index);
  };
  // Enter in an item row goes to the next row's SKU, adding a row after the last one.
  const onItemKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    event.preventDefault();
    if (index === items.fields.length - 1) addItem();
    else setFocus(`items.${index + 1}.sku`);
  };

  const saving = create.isPending || update.isPending || isSubmitting;
  const onValid = async (body: SavedBody) => {
    setFormMessage(null);
    try {
      let orderId: string;
      if (mode === 'create') {
        orderId = await create.mutateAsync(body as CreateOrderBody);
      } else {
        const changes = body as UpdateOrderBody;
        orderId = await update.mutateAsync(
          itemsEditable ? changes : { ...changes, items: undefined },
        );
      }
      saved.current = true;
      const doneNote = mode === 'create' ? 'Order created.' : 'Order saved.';
      announce(doneNote);
      await navigate({ to: '/orders/$orderId', params: { orderId }, state: { doneNote } });
    } catch (error) {
      const problems = saveProblemsOf(error, fieldPathsOf(getValues()));
      focusFirstError.current = problems.fields.length > 0;
      for (const problem of problems.fields) {
        setError(problem.path as Path<OrderFormValues>, {
          type: 'server',
          message: problem.message,
        });
      }
      setFormMessage(problems.formMessage);
      if (problems.fields.length === 0) formMessageRef.current?.focus();
    }
  };
  const itemsError = errorAt(errors, 'items') ?? errorAt(errors, 'items.root');
  // A blank quantity is missing, not a bad number. Stored trackers have no inputs: their
  // complaint (more tracked than ordered) is about the quantity.
  const quantityError = (index: number) => {
    const error = errorAt(errors, `items.${index}.quantity`);
    if (error && getValues(`items.${index}.quantity`) === undefined) return 'Enter a quantity';
    return error ?? errorAt(errors, `items.${index}.trackers`);
  };

  return (
    <form
      className="order-form"
      noValidate
      aria-busy={saving || undefined}
      ref={formRef}
      onSubmit={(event) =>
        void handleSubmit(onValid, (invalid) => {
          unplacedProblems.current = problemsText(invalid);
          focusFirstError.current = true;
        })(event)
      }
    >
      <div ref={formMessageRef} tabIndex={-1}>
        {formMessage ? (
          <p className="form-error" role="alert">
            Could not save the order: {formMessage}
          </p>
        ) : null}
      </div>
      {mode === 'create' ? (
        <ScopeFields
          register={register}
          errors={errors}
          facilityId={facilityId}
          brandId={brandId}
          retailerId={retailerId}
        />
      ) : order ? (
        <p className="lead">
          {order.identifiers.brand.name} for {order.identifiers.retailer.name}, shipping from{' '}
          {order.identifiers.facility.name}.
        </p>
      ) : null}

      <fieldset className="form-section">
        <legend>Order</legend>
        <div className="form-grid">
          {mode === 'create' ? (
            <Field
              path="picksheet_code"
              label="Picksheet code (required)"
              register={register}
              errors={errors}
            />
          ) : (
            <div className="field">
              <span className="field-label">Picksheet code</span>
              <code>{initial.picksheet_code}</code>
            </div>
          )}
          <Field path="po_number" label="PO number" register={register} errors={errors} />
          <Field
            path="external_order_id"
            label="External order id"
            register={register}
            errors={errors}
          />
          <Field path="dept_number" label="Department number" register={register} errors={errors} />
          <Field path="purchase_order_type" label="PO type" register={register} errors={errors} />
          <TransportationMethod
            register={register}
            errors={errors}
            stored={initial.transportation_method}
          />
          <Field path="carrier" label="Carrier" register={register} errors={errors} />
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Items</legend>
        {itemsEditable ? (
          <>
            <p className="hint" id="order-items-hint">
              Enter in an item row moves to the next row, adding one after the last.
            </p>
            <div className="table-scroll">
              <table className="data-table item-rows">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    {ITEM_COLUMNS.map((column) => (
                      <th key={column.field} scope="col">
                        {column.label}
                      </th>
                    ))}
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.fields.map((row, index) => (
                    <tr key={row.id} onKeyDown={(event) => onItemKeyDown(event, index)}>
                      <th scope="row">{index + 1}</th>
                      {ITEM_COLUMNS.map((column) => {
                        const path = `items.${index}.${column.field}` as const;
                        const numeric =
                          column.field === 'quantity' || column.field === 'case_pack_quantity';
                        const error =
                          column.field === 'quantity'
                            ? quantityError(index)
                            : errorAt(errors, path);
                        return (
                          <td key={column.field}>
                            <input
                              id={idOf(path)}
                              className="cell-input"
                              aria-label={`${column.label}, item ${index + 1}`}
                              aria-invalid={error ? true : undefined}
                              aria-describedby={error ? `${idOf(path)}-error` : undefined}
                              type={numeric ? 'number' : 'text'}
                              inputMode={numeric ? 'numeric' : undefined}
                              min={numeric ? 1 : undefined}
                              step={numeric ? 1 : undefined}
                              maxLength={numeric ? undefined : maxLengthOf(path)}
                              {...register(
                                path,
                                numeric
                                  ? {
                                      setValueAs: numberOrBlank(
                                        column.field === 'quantity' ? undefined : null,
                                      ),
                                    }
                                  : undefined,
                              )}
                            />
                            {error ? (
                              <p
                                id={`${idOf(path)}-error`}
                                className="field-error cell-error"
                                role="alert"
                              >
                                {error}
                              </p>
                            ) : null}
                          </td>
                        );
                      })}
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          aria-label={`Remove item ${index + 1}`}
                          aria-disabled={items.fields.length === 1 || undefined}
                          onClick={() => {
                            if (items.fields.length > 1) removeItem(index);
                          }}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {itemsError ? (
              <p className="field-error" role="alert">
                Items: {itemsError}
              </p>
            ) : null}
            <button ref={addButton} type="button" className="button" onClick={() => addItem()}>
              Add item
            </button>
          </>
        ) : (
          <p className="hint">
            Items can change only before packing; this order is {order?.status.toLowerCase()}.
          </p>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>Dates</legend>
        <div className="form-grid">
          {ORDER_DATE_FIELDS.map((field) => (
            <Field
              key={field}
              path={`dates.${field}`}
              label={DATE_LABELS[field]}
              type="date"
              register={register}
              errors={errors}
            />
          ))}
        </div>
      </fieldset>

      {(
        [
          ['ship_to_contact', 'Ship to', SHIP_TO_FIELDS],
          ['bill_to_contact', 'Bill to', BILL_TO_FIELDS],
          ['mark_for_contact', 'Mark for', MARK_FOR_FIELDS],
        ] as const
      ).map(([contact, title, fields]) => (
        <fieldset className="form-section" key={contact}>
          <legend>{title}</legend>
          <div className="form-grid">
            {fields.map((field) => (
              <Field
                key={field}
                path={`address_data.${contact}.${field}` as Path<OrderFormValues>}
                label={`${title}: ${CONTACT_LABELS[field] ?? field}`}
                type={field === 'email' ? 'email' : undefined}
                register={register}
                errors={errors}
              />
            ))}
          </div>
        </fieldset>
      ))}

      <div className="action-bar">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : mode === 'create' ? 'Create order' : 'Save changes'}
        </button>
        {mode === 'edit' && order ? (
          <Link to="/orders/$orderId" params={{ orderId: order.identifiers.id }} className="button">
            Cancel
          </Link>
        ) : (
          <Link to="/orders" className="button">
            Cancel
          </Link>
        )}
      </div>
    </form>
  );
}
