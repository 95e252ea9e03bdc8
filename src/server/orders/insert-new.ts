import type { Db } from '../db/db';
import type { CreateOrderBody } from '../../shared/orders';
import { insertOrder } from './queries';
import { addressColumns, createItemRows, dateColumns, textColumns } from './rows';

/**
 * Stores a new Open order from a create body already checked (references, picksheet code), in the
 * caller's transaction: endpoint 4 and the 850 ingest (edi) write orders the same way.
 */
export async function insertNewOrder(
  trx: Db,
  body: CreateOrderBody,
  at: string,
  orderId: string = crypto.randomUUID(),
): Promise<string> {
  await insertOrder(
    trx,
    {
      id: orderId,
      brand_id: body.brand_id,
      retailer_id: body.retailer_id,
      facility_id: body.facility_id,
      picksheet_code: body.picksheet_code,
      ...textColumns(body),
      ...addressColumns(body.address_data),
      ...dateColumns(body.dates),
      status: 'Open',
      created_at: at,
      updated_at: at,
    },
    createItemRows(body.items),
  );
  return orderId;
}
