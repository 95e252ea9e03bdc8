import { sql, type Insertable, type Updateable } from 'kysely';
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import { visibleFacilitiesQuery } from '../access';
import type { CartonSkusTable, CartonsTable, PalletsTable } from '../db/schema';
import { engineOf } from '../db/engine';
import { serialSql as sqliteSerialSql } from './serial-sql';
import { serialSql as postgresSerialSql } from './serial-sql.postgres';

/** The engine's twin of the serial arithmetic (./serial-sql.ts). */
const serialSqlOf = (db: Db) => (engineOf(db) === 'postgres' ? postgresSerialSql : sqliteSerialSql);

/** SQL of the fulfilment steps (domain/fulfilment). Every function runs in the caller's transaction. */

export type CartonRow = Awaited<ReturnType<typeof listCartons>>[number];
export type CartonSkuRow = Awaited<ReturnType<typeof listCartonSkus>>[number];
export type PalletRow = Awaited<ReturnType<typeof listPallets>>[number];

export function listCartons(db: Db, orderId: string) {
  return db
    .selectFrom('cartons')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The SKU lines of every carton of the order. */
export function listCartonSkus(db: Db, orderId: string) {
  return db
    .selectFrom('carton_skus as s')
    .innerJoin('cartons as c', 'c.id', 's.carton_id')
    .where('c.order_id', '=', orderId)
    .select(['s.id', 's.carton_id', 's.sku', 's.upc', 's.quantity', 's.serial_numbers_json'])
    .orderBy('s.carton_id')
    .orderBy('s.sku')
    .orderBy('s.id')
    .execute();
}

/** The SKU lines of one carton. */
export function listSkusOfCarton(db: Db, cartonId: string) {
  return db
    .selectFrom('carton_skus as s')
    .where('s.carton_id', '=', cartonId)
    .select(['s.id', 's.carton_id', 's.sku', 's.upc', 's.quantity', 's.serial_numbers_json'])
    .orderBy('s.sku')
    .orderBy('s.id')
    .execute();
}

export function listPallets(db: Db, orderId: string) {
  return db
    .selectFrom('pallets')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findCarton(db: Db, orderId: string, cartonId: string) {
  return db
    .selectFrom('cartons')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('id', '=', cartonId)
    .executeTakeFirst();
}

/** The order's open carton (packing not complete), if any; the oldest when several. */
export function findOpenCarton(db: Db, orderId: string) {
  return db
    .selectFrom('cartons')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('packing_complete_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

export function findPallet(db: Db, orderId: string, palletId: string) {
  return db
    .selectFrom('pallets')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('id', '=', palletId)
    .executeTakeFirst();
}

/** Units packed per SKU over all cartons of the order (open ones included). */
export async function packedUnitsBySku(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('carton_skus as s')
    .innerJoin('cartons as c', 'c.id', 's.carton_id')
    .where('c.order_id', '=', orderId)
    .select(['s.sku', (eb) => eb.fn.sum<number>('s.quantity').as('units')])
    .groupBy('s.sku')
    .execute();
  return new Map(rows.map((row) => [row.sku, Number(row.units)]));
}

export async function insertCarton(
  db: Db,
  carton: Insertable<CartonsTable>,
  skus: Insertable<CartonSkusTable>[],
) {
  await db.insertInto('cartons').values(carton).execute();
  if (skus.length > 0) await db.insertInto('carton_skus').values(skus).execute();
}

export async function updateCarton(db: Db, cartonId: string, changes: Updateable<CartonsTable>) {
  await db.updateTable('cartons').set(changes).where('id', '=', cartonId).execute();
}

/** Deletes a carton; its SKU lines go with it (ON DELETE CASCADE). */
export async function deleteCarton(db: Db, cartonId: string) {
  await db.deleteFrom('cartons').where('id', '=', cartonId).execute();
}

export function findCartonSku(db: Db, cartonId: string, sku: string) {
  return db
    .selectFrom('carton_skus')
    .selectAll()
    .where('carton_id', '=', cartonId)
    .where('sku', '=', sku)
    .executeTakeFirst();
}

export async function insertCartonSku(db: Db, row: Insertable<CartonSkusTable>) {
  await db.insertInto('carton_skus').values(row).execute();
}

export async function updateCartonSku(db: Db, id: string, changes: Updateable<CartonSkusTable>) {
  await db.updateTable('carton_skus').set(changes).where('id', '=', id).execute();
}

export async function countCartonUnits(db: Db, cartonId: string): Promise<number> {
  const row = await db
    .selectFrom('carton_skus')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantity'), sql<number>`0`).as('units'))
    .where('carton_id', '=', cartonId)
    .executeTakeFirstOrThrow();
  return Number(row.units);
}

export async function insertPallet(db: Db, pallet: Insertable<PalletsTable>) {
  await db.insertInto('pallets').values(pallet).execute();
}

/** Cartons lose their pallet (FK ON DELETE SET NULL). */
export async function deletePallet(db: Db, palletId: string) {
  await db.deleteFrom('pallets').where('id', '=', palletId).execute();
}

export async function setCartonsPallet(
  db: Db,
  orderId: string,
  cartonIds: readonly string[],
  palletId: string | null,
) {
  if (cartonIds.length === 0) return;
  await db
    .updateTable('cartons')
    .set({ pallet_id: palletId })
    .where('order_id', '=', orderId)
    .where('id', 'in', [...cartonIds])
    .execute();
}

/** Every pallet of the order moves to `changes` (staging, loading). */
export async function updateOrderPallets(
  db: Db,
  orderId: string,
  changes: Updateable<PalletsTable>,
) {
  await db.updateTable('pallets').set(changes).where('order_id', '=', orderId).execute();
}

/* ---- SSCC serials ---- */

/** The next serial of the company prefix from its durable counter (first one: 1). */
export async function takeSsccSerial(db: Db, prefix: string): Promise<number> {
  const row = await db
    .insertInto('sscc_counters')
    .values({ company_prefix: prefix, last_serial: 1 })
    .onConflict((oc) =>
      oc.column('company_prefix').doUpdateSet({ last_serial: sql`sscc_counters.last_serial + 1` }),
    )
    .returning('last_serial')
    .executeTakeFirstOrThrow();
  return row.last_serial;
}

/** A workstation's device id (sync_state holds one only there); null elsewhere. */
export async function workstationDeviceId(db: Db): Promise<string | null> {
  const row = await db.selectFrom('sync_state').select('device_id').executeTakeFirst();
  return row?.device_id ?? null;
}

/**
 * A workstation's next serial: from the first of its leased blocks with serials left above the
 * local counter, which then moves to it. Null when its blocks are used up.
 */
export async function takeBlockSerial(
  db: Db,
  prefix: string,
  deviceId: string,
): Promise<number | null> {
  const counter = sql<number>`coalesce((SELECT c.last_serial FROM sscc_counters c WHERE c.company_prefix = ${prefix}), 0)`;
  const block = await db
    .selectFrom('sscc_serial_blocks')
    .select(['first_serial', sql<number>`${counter}`.as('counter')])
    .where('company_prefix', '=', prefix)
    .where('device_id', '=', deviceId)
    .where('last_serial', '>', counter)
    .orderBy('first_serial')
    .limit(1)
    .executeTakeFirst();
  if (!block) return null;
  const serial = Math.max(block.counter + 1, block.first_serial);
  await db
    .insertInto('sscc_counters')
    .values({ company_prefix: prefix, last_serial: serial })
    .onConflict((oc) => oc.column('company_prefix').doUpdateSet({ last_serial: serial }))
    .execute();
  return serial;
}

/** Serials a workstation has left in its blocks of the prefix. */
export async function serialsLeft(db: Db, prefix: string, deviceId: string): Promise<number> {
  const counter = sql<number>`coalesce((SELECT c.last_serial FROM sscc_counters c WHERE c.company_prefix = ${prefix}), 0)`;
  const row = await db
    .selectFrom('sscc_serial_blocks')
    .select(
      sql<number>`coalesce(sum(last_serial - ${serialSqlOf(db).greatest(sql`first_serial - 1`, counter)}), 0)`.as(
        'n',
      ),
    )
    .where('company_prefix', '=', prefix)
    .where('device_id', '=', deviceId)
    .where('last_serial', '>', counter)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The central leases the next `size` serials of the prefix to a device (after its own counter). */
export async function leaseSerialBlock(
  db: Db,
  prefix: string,
  deviceId: string,
  size: number,
  at: string,
) {
  // Past every stored SSCC too (imported ones, and those of facilities the device cannot see).
  const floor = await highestStoredSerial(db, prefix);
  const row = await db
    .insertInto('sscc_counters')
    .values({ company_prefix: prefix, last_serial: floor + size })
    .onConflict((oc) =>
      oc.column('company_prefix').doUpdateSet({
        last_serial: sql`${serialSqlOf(db).greatest(sql`sscc_counters.last_serial`, floor)} + ${size}`,
      }),
    )
    .returning('last_serial')
    .executeTakeFirstOrThrow();
  const block = {
    company_prefix: prefix,
    first_serial: row.last_serial - size + 1,
    last_serial: row.last_serial,
    device_id: deviceId,
    leased_at: at,
  };
  await db.insertInto('sscc_serial_blocks').values(block).execute();
  return block;
}

/** Moves the counter of the prefix to at least `serial`. */
export async function raiseSsccCounter(db: Db, prefix: string, serial: number) {
  await db
    .updateTable('sscc_counters')
    .set({ last_serial: serialSqlOf(db).greatest(sql`last_serial`, serial) })
    .where('company_prefix', '=', prefix)
    .execute();
}

export async function ssccInUse(db: Db, sscc: string): Promise<boolean> {
  const row = await db
    .selectFrom('cartons')
    .select('id')
    .where('sscc', '=', sscc)
    .unionAll(db.selectFrom('pallets').select('id').where('sscc', '=', sscc))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The highest serial reference stored in an SSCC of this prefix (cartons and pallets), e.g. from
 * an imported bundle; 0 when none. SSCC: extension digit, prefix, serial, check digit.
 */
export async function highestStoredSerial(db: Db, prefix: string): Promise<number> {
  const serialLength = 16 - prefix.length;
  const serialOf = (column: string) =>
    sql<number>`max(${serialSqlOf(db).serialOf(column, 2 + prefix.length, serialLength)})`;
  const matches = (column: string) =>
    sql<boolean>`length(${sql.ref(column)}) = 18 and substr(${sql.ref(column)}, 2, ${prefix.length}) = ${prefix}`;
  const row = await db
    .selectFrom(
      db
        .selectFrom('cartons')
        .select(serialOf('sscc').as('serial'))
        .where(matches('sscc'))
        .unionAll(
          db.selectFrom('pallets').select(serialOf('sscc').as('serial')).where(matches('sscc')),
        )
        .as('u'),
    )
    .select((eb) => eb.fn.max('u.serial').as('serial'))
    .executeTakeFirst();
  return Number(row?.serial ?? 0);
}

/* ---- Brands ---- */

export function findBrandForSscc(db: Db, brandId: string) {
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'gs1_company_prefix'])
    .where('id', '=', brandId)
    .executeTakeFirst();
}

/** A brand the user sees: it works at one of the user's visible facilities (and is its brand). */
export function findVisibleBrand(db: Db, user: AuthUser, brandId: string) {
  return visibleFacilitiesQuery(db, user)
    .innerJoin('brand_facilities as bf', 'bf.facility_id', 'f.id')
    .innerJoin('brands as b', 'b.id', 'bf.brand_id')
    .where('b.id', '=', brandId)
    .where((eb) => (user.brandId ? eb('b.id', '=', user.brandId) : eb.lit(true)))
    .select(['b.id', 'b.name', 'b.gs1_company_prefix'])
    .executeTakeFirst();
}

export async function setBrandGs1Prefix(db: Db, brandId: string, prefix: string) {
  await db
    .updateTable('brands')
    .set({ gs1_company_prefix: prefix })
    .where('id', '=', brandId)
    .execute();
}

/* ---- Activity ---- */

export function listOrderActivity(db: Db, orderId: string) {
  return db
    .selectFrom('order_activity')
    .select([
      'id',
      'kind',
      'action_type',
      'metric',
      'count',
      'carton_id',
      'pallet_id',
      'sscc',
      'created_at',
    ])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The automatic Carton Workflow / Pack action of a carton (undone with the carton). */
export async function deleteCartonPackAction(db: Db, cartonId: string) {
  await db
    .deleteFrom('order_activity')
    .where('carton_id', '=', cartonId)
    .where('kind', '=', 'ACTION')
    .where('action_type', '=', 'Carton Workflow')
    .where('metric', '=', 'Pack')
    .execute();
}
