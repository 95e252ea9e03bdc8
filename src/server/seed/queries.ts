import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Trx = Kysely<Database>;
type Table = 'organizations' | 'facilities' | 'brands' | 'retailers' | 'users' | 'connections';

/** Whether a row with this primary key exists (seen inside the import's transaction). */
export async function rowExists(trx: Trx, table: Table, id: string): Promise<boolean> {
  const row = await trx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function upsertById<T extends Exclude<Table, 'users'>>(
  trx: Trx,
  table: T,
  row: Database[T] & { id: string },
) {
  const { id: _id, ...rest } = row;
  await trx
    .insertInto(table)
    .values(row as never)
    .onConflict((oc) => oc.column('id').doUpdateSet(rest as never))
    .execute();
}

export async function linkBrandFacility(trx: Trx, brandId: string, facilityId: string) {
  await trx
    .insertInto('brand_facilities')
    .values({ brand_id: brandId, facility_id: facilityId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export function findUserIdByEmail(trx: Trx, email: string) {
  return trx
    .selectFrom('users')
    .select(['id', 'password_hash', 'seed_source'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Creates or updates a user and replaces its facility and admin grants with the given ones. */
export async function upsertUser(
  trx: Trx,
  user: {
    id: string;
    email: string;
    password_hash: string;
    brand_id: string | null;
    seed_source: string | null;
  },
  facilityIds: string[],
  admin: { brand_id: string; facility_id: string }[],
) {
  await trx
    .insertInto('users')
    .values(user)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        password_hash: user.password_hash,
        brand_id: user.brand_id,
        seed_source: user.seed_source,
      }),
    )
    .execute();
  await trx.deleteFrom('user_facilities').where('user_id', '=', user.id).execute();
  await trx.deleteFrom('user_admin').where('user_id', '=', user.id).execute();
  for (const facilityId of new Set(facilityIds)) {
    await trx
      .insertInto('user_facilities')
      .values({ user_id: user.id, facility_id: facilityId })
      .execute();
  }
  for (const pair of admin) {
    await trx
      .insertInto('user_admin')
      .values({ user_id: user.id, ...pair })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** True when an order with this id exists (the demo makes its documents on a fresh workspace only). */
export async function orderExists(db: Trx, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined
  );
}

const SENT_COLUMNS = [
  ['855', 'po_acknowledgment_sent_at'],
  ['856', 'asn_sent_at'],
  ['810', 'invoice_sent_at'],
] as const;

/**
 * The `*_sent_at` of orders whose documents went out, where a seed import left them null: the
 * demo bundle states the orders, the documents made once at its first import state the sends.
 */
export async function restoreSentTimes(db: Trx, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  for (const [type, column] of SENT_COLUMNS) {
    await db
      .updateTable('orders')
      .set((eb) => ({
        [column]: eb
          .selectFrom('order_documents')
          .select((d) => d.fn.min<string | null>('order_documents.sent_at').as('sent'))
          .whereRef('order_documents.order_id', '=', 'orders.id')
          .where('order_documents.type', '=', type)
          .where('order_documents.direction', '=', 'out'),
      }))
      .where('id', 'in', orderIds)
      .where(column, 'is', null)
      .execute();
  }
}
