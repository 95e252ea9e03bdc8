import { ITEM_EDITABLE_STATUSES, type OrderStatus } from '../../../shared/orders';
import type { PoChange } from './map-860';

/**
 * Whether an order can take an 860's changes, and the order's lines after them. All or nothing:
 * one change that does not fit refuses the whole 860, with a reason in clerk words (shown as an
 * exception to handle by hand).
 */

export interface ChangeableLine {
  /** PO101: the line id the 860's POC01 names. */
  line_id: string;
  sku: string;
  upc: string | null;
  vendor_pn: string | null;
  quantity: number;
  /** The PO's unit price, kept for the 810. */
  unit_price: number | null;
  description: string | null;
}

export interface ChangeableOrder {
  status: OrderStatus;
  po_number: string | null;
  lines: ChangeableLine[];
}

export type ChangeOutcome =
  { applied: true; cancel: boolean; lines: ChangeableLine[] } | { applied: false; reason: string };

export function applyPoChange(order: ChangeableOrder, changes: PoChange[]): ChangeOutcome {
  const po = order.po_number ? `PO ${order.po_number}` : 'The PO';
  if (order.status === 'Cancelled') {
    return { applied: false, reason: `${po} was changed, but its order is already cancelled.` };
  }
  if (!ITEM_EDITABLE_STATUSES.includes(order.status)) {
    return {
      applied: false,
      reason:
        `${po} was changed after its order was ${order.status.toLowerCase()}; the change was not ` +
        'applied. Check it with the retailer and change the order by hand if it still can be.',
    };
  }
  if (changes.some((change) => change.kind === 'cancel')) {
    return { applied: true, cancel: true, lines: order.lines };
  }
  const lines = order.lines.map((line) => ({ ...line }));
  const find = (lineId: string) => lines.findIndex((line) => line.line_id === lineId);
  for (const change of changes) {
    if (change.kind === 'cancel') continue;
    const at = find(change.line_id);
    const refuse = (why: string) => ({
      applied: false as const,
      reason: `${po}, line ${change.line_id}: ${why}; the change was not applied.`,
    });
    if (change.kind === 'add') {
      if (at !== -1) return refuse('the change adds a line the order already has');
      lines.push({
        line_id: change.line_id,
        sku: change.sku,
        upc: change.upc,
        vendor_pn: change.vendor_pn,
        quantity: change.quantity,
        unit_price: change.unit_price,
        description: change.description,
      });
      continue;
    }
    const line = lines[at];
    if (!line) return refuse('the order has no such line');
    if (change.kind === 'delete') {
      lines.splice(at, 1);
    } else if (change.kind === 'quantity') {
      if (change.direction === 'up' && change.quantity <= line.quantity) {
        return refuse(
          `the retailer says the quantity goes up, but ${change.quantity} is not more than ${line.quantity}`,
        );
      }
      if (change.direction === 'down' && change.quantity >= line.quantity) {
        return refuse(
          `the retailer says the quantity goes down, but ${change.quantity} is not less than ${line.quantity}`,
        );
      }
      line.quantity = change.quantity;
    } else {
      line.unit_price = change.unit_price;
    }
  }
  if (lines.length === 0) {
    return {
      applied: false,
      reason: `${po}: the change removes every line; the change was not applied. Cancel the order if the retailer means to.`,
    };
  }
  return { applied: true, cancel: false, lines };
}
