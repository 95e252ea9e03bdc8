import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import type {
  OrderIdempotencyTable,
  OrderItemsTable,
  OrdersTable,
  TransactionsTable,
} from '../db/schema';

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;

/**
 * Orders the user sees: the order's facility is one of the user's facilities and, when the
 * credentials act for a brand, the order is that brand's. Another tenant's order is simply absent.
 */
export function visibleOrdersQuery(db: Db, user: AuthUser) {
  let query = db
    .selectFrom('orders as o')
    .innerJoin('user_facilities as uf', (join) =>
      join.onRef('uf.facility_id', '=', 'o.facility_id').on('uf.user_id', '=', user.id),
    );
  if (user.brandId) query = query.where('o.brand_id', '=', user.brandId);
  return query;
}

/** One visible order by id, every column; undefined for unknown and other tenants' orders. */
export function findOrderForUser(db: Db, user: AuthUser, orderId: string) {
  return visibleOrdersQuery(db, user).selectAll('o').where('o.id', '=', orderId).executeTakeFirst();
}

export interface PicksheetLookup {
  picksheetCode: string;
  brandId?: string | undefined;
  retailerId?: string | undefined;
  facilityId?: string | undefined;
  orderId?: string | undefined;
}

/**
 * Visible orders with this picksheet code, narrowed by whichever ids are given. At most `limit`
 * rows: the caller only needs to tell none, one and several apart.
 */
export function findOrdersByPicksheet(db: Db, user: AuthUser, lookup: PicksheetLookup, limit = 2) {
  let query = visibleOrdersQuery(db, user)
    .selectAll('o')
    .where('o.picksheet_code', '=', lookup.picksheetCode);
  if (lookup.brandId) query = query.where('o.brand_id', '=', lookup.brandId);
  if (lookup.retailerId) query = query.where('o.retailer_id', '=', lookup.retailerId);
  if (lookup.facilityId) query = query.where('o.facility_id', '=', lookup.facilityId);
  if (lookup.orderId) query = query.where('o.id', '=', lookup.orderId);
  return query.orderBy('o.created_at').orderBy('o.id').limit(limit).execute();
}

/** Whether an order with this picksheet code exists at the facility (whoever can see it). */
export async function picksheetTaken(db: Db, facilityId: string, picksheetCode: string) {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('picksheet_code', '=', picksheetCode)
    .executeTakeFirst();
  return row !== undefined;
}

export function listOrderItems(db: Db, orderId: string) {
  return db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('line_number')
    .execute();
}

/** Whether the retailer is connected to the brand within the organisation (endpoint 18's rule). */
export async function retailerConnected(
  db: Db,
  organizationId: string,
  brandId: string,
  retailerId: string,
) {
  const row = await db
    .selectFrom('connections')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('brand_id', '=', brandId)
    .where('retailer_id', '=', retailerId)
    .executeTakeFirst();
  return row !== undefined;
}

export function findRetailer(db: Db, retailerId: string) {
  return db
    .selectFrom('retailers')
    .select(['id', 'name'])
    .where('id', '=', retailerId)
    .executeTakeFirst();
}

export async function insertOrder(
  db: Db,
  order: Insertable<OrdersTable>,
  items: Omit<Insertable<OrderItemsTable>, 'order_id'>[],
) {
  await db.insertInto('orders').values(order).execute();
  await insertItems(db, order.id, items);
}

async function insertItems(
  db: Db,
  orderId: string,
  items: Omit<Insertable<OrderItemsTable>, 'order_id'>[],
) {
  // SQLite allows 32766 bound parameters per statement; 12 columns × 500 rows stays far below.
  for (let start = 0; start < items.length; start += 500) {
    const chunk = items.slice(start, start + 500).map((item) => ({ ...item, order_id: orderId }));
    await db.insertInto('order_items').values(chunk).execute();
  }
}

export async function updateOrderColumns(
  db: Db,
  orderId: string,
  changes: Updateable<OrdersTable>,
) {
  await db.updateTable('orders').set(changes).where('id', '=', orderId).execute();
}

export async function replaceOrderItems(
  db: Db,
  orderId: string,
  items: Omit<Insertable<OrderItemsTable>, 'order_id'>[],
) {
  await db.deleteFrom('order_items').where('order_id', '=', orderId).execute();
  await insertItems(db, orderId, items);
}

export function findIdempotentAnswer(db: Db, userId: string, key: string) {
  return db
    .selectFrom('order_idempotency')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function insertIdempotentAnswer(db: Db, row: Insertable<OrderIdempotencyTable>) {
  await db.insertInto('order_idempotency').values(row).execute();
}

export async function insertTransactionRow(db: Db, row: Insertable<TransactionsTable>) {
  await db.insertInto('transactions').values(row).execute();
}
