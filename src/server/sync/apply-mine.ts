import { ORDER_DATE_FIELDS } from '../../shared/orders';
import { ORDER_TEXT_FIELDS } from '../orders';
import type { AppliedValue } from './conflict-rules';

/** The order's contact columns and the update body's address keys they come from. */
const ADDRESS_KEYS: Record<string, string> = {
  ship_to_json: 'ship_to_contact',
  bill_to_json: 'bill_to_contact',
  mark_for_json: 'mark_for_contact',
};

const TEXT = new Set<string>(ORDER_TEXT_FIELDS);
const DATES = new Set<string>(ORDER_DATE_FIELDS);

function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // left for the update body's schema to refuse
  }
}

/**
 * "Apply mine" as the command a clerk would run: the order's own fields (text, dates, contacts)
 * become an order update body (validated, logged, and refused on a finished order like any
 * update); what the update command does not edit (line and carton fields) stays a column write.
 */
export function asOrderUpdate(
  values: AppliedValue[],
  order: { id: string; picksheet_code: string },
): { body: Record<string, unknown> | null; rest: AppliedValue[] } {
  const body: Record<string, unknown> = {
    picksheet_code: order.picksheet_code,
    order_id: order.id,
  };
  const dates: Record<string, unknown> = {};
  const address: Record<string, unknown> = {};
  const rest: AppliedValue[] = [];
  let any = false;
  for (const value of values) {
    const column = value.column;
    if (value.table.name !== 'orders') rest.push(value);
    else if (TEXT.has(column)) body[column] = value.value;
    else if (DATES.has(column)) dates[column] = value.value;
    else if (column in ADDRESS_KEYS) address[ADDRESS_KEYS[column]!] = parsedJson(value.value);
    else {
      rest.push(value);
      continue;
    }
    if (value.table.name === 'orders') any = true;
  }
  if (Object.keys(dates).length > 0) body.dates = dates;
  if (Object.keys(address).length > 0) body.address_data = address;
  return { body: any ? body : null, rest };
}
