import { z } from 'zod';
import {
  INVOICE_LINE_METRICS,
  billingPricesBodySchema,
  type BillingPrices,
  type InvoiceLineMetric,
} from '../../../../shared/billing';
import { ACTION_TYPES, type ActionType } from '../../../../shared/fulfilment-activity';
import { describeError, isApiError } from '../../api/ApiError';

/** The prices screen's URL state: the brand whose prices are open. */
export const billingPricesSearchSchema = z.object({
  brand: z.uuid().optional().catch(undefined),
});

/** One action row; inputs hold text (a blank type is "not chosen yet"). */
export interface ActionRowValues {
  type: ActionType | '';
  metric: string;
  price_dollars: string;
}

/** The form holds what is typed: a blank metric price means "not billed". */
export interface PricesFormValues {
  prices: Record<InvoiceLineMetric, string>;
  actions: ActionRowValues[];
}

export const emptyActionRow = (): ActionRowValues => ({ type: '', metric: '', price_dollars: '' });

/** Cents as the form shows them: `1.5` is `1.50`. */
const shown = (dollars: number) => dollars.toFixed(2);

export function formValuesOf(prices: BillingPrices): PricesFormValues {
  return {
    prices: Object.fromEntries(
      INVOICE_LINE_METRICS.map((metric) => {
        const value = prices.prices[metric];
        return [metric, value === undefined ? '' : shown(value)];
      }),
    ) as Record<InvoiceLineMetric, string>,
    actions: prices.actions.map((action) => ({
      type: (ACTION_TYPES as readonly string[]).includes(action.type)
        ? (action.type as ActionType)
        : '',
      metric: action.metric,
      price_dollars: shown(action.price_dollars),
    })),
  };
}

/**
 * Typed dollars as a number: `$1,250.5` is 1250.5. Text that is no number stays text, so the
 * shared schema words the problem ("must be a number of dollars").
 */
export function dollarsOf(text: string): number | string {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (cleaned === '' || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return text;
  return Number(cleaned);
}

/** The form's values as the body's input: blank metric prices left out, rows kept by index. */
export function bodyInputOf(values: PricesFormValues): unknown {
  return {
    prices: Object.fromEntries(
      Object.entries(values.prices)
        .filter(([, text]) => text.trim() !== '')
        .map(([metric, text]) => [metric, dollarsOf(text)]),
    ),
    actions: values.actions.map((row) => ({
      type: row.type,
      metric: row.metric,
      price_dollars: row.price_dollars.trim() === '' ? undefined : dollarsOf(row.price_dollars),
    })),
  };
}

/** The shared body schema over the form's text: its messages land on the form's own paths. */
export const pricesFormSchema = z.preprocess(
  (values: PricesFormValues) => bodyInputOf(values),
  billingPricesBodySchema,
);

/** A schema message as a clerk reads it next to one field. */
export function priceFieldMessage(field: 'type' | 'metric' | 'price', message: string): string {
  if (field === 'type' && /invalid option|expected one of/i.test(message)) {
    return 'Choose the type of action.';
  }
  if (field === 'metric' && /too small|>=1/i.test(message)) return 'Name the action (e.g. Pack).';
  if (field === 'price' && /expected number, received undefined/i.test(message)) {
    return 'Enter a price in dollars, e.g. 0.25.';
  }
  if (/expected number/i.test(message)) return 'Must be a number of dollars, e.g. 0.25.';
  // The schema counts rows from 0 (`actions[0]`); the form numbers them from 1.
  const text = message.replace(
    /actions\[(\d+)\]/g,
    (_, index: string) => `row ${Number(index) + 1}`,
  );
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The form's field paths, for placing a rejected save's problems (see orders/serverErrors). */
export function pricePathsOf(values: PricesFormValues): string[] {
  return [
    ...INVOICE_LINE_METRICS.map((metric) => `prices.${metric}`),
    ...values.actions.flatMap((_, index) => [
      `actions.${index}.type`,
      `actions.${index}.metric`,
      `actions.${index}.price_dollars`,
    ]),
  ];
}

/** What a refused save says above the form; a 403 says who may change prices. */
export function saveRefusalText(error: unknown, brandName: string): string {
  if (isApiError(error) && error.status === 403) {
    return `You may not change the prices of ${brandName}: that needs an admin grant for ${brandName} at one of your facilities. Ask an administrator; nothing was saved.`;
  }
  if (isApiError(error) && error.status === 404) {
    return `${brandName} is no longer one of your brands; nothing was saved.`;
  }
  return `Could not save the prices: ${isApiError(error) ? error.message : describeError(error)}`;
}
