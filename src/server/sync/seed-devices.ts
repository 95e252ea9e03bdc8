import { sql, type Kysely } from 'kysely';
import type { SeedDevice } from '../../shared/sync-seed';
import type { Database } from '../db/schema';
import { hashPassword, PASSWORD_COST, verifyPassword, type PasswordCost } from '../access';
import type { RequireRow } from '../core/seed-support';

export interface HashedSeedDevice extends Omit<SeedDevice, 'secret'> {
  secret_hash: string;
}

/** Hashes device secrets before the import's transaction; an unchanged secret keeps its hash. */
export async function hashSeedDevices(
  db: Kysely<Database>,
  devices: SeedDevice[],
  options: { passwordCost?: PasswordCost },
): Promise<HashedSeedDevice[]> {
  return Promise.all(
    devices.map(async ({ secret, ...device }) => {
      const existing = await db
        .selectFrom('devices')
        .select('secret_hash')
        .where('id', '=', device.id)
        .executeTakeFirst();
      const secret_hash =
        existing && (await verifyPassword(secret, existing.secret_hash))
          ? existing.secret_hash
          : await hashPassword(secret, options.passwordCost ?? PASSWORD_COST);
      return { ...device, secret_hash };
    }),
  );
}

/** Upserts each device by id and replaces its facilities. */
export async function importSeedDevices(
  trx: Kysely<Database>,
  devices: HashedSeedDevice[],
  requireRow: RequireRow,
): Promise<void> {
  const now = new Date().toISOString();
  for (const [i, device] of devices.entries()) {
    for (const [j, facilityId] of device.facility_ids.entries()) {
      await requireRow('facilities', facilityId, `devices[${i}].facility_ids[${j}]`);
    }
    await trx
      .insertInto('devices')
      .values({
        id: device.id,
        name: device.name,
        secret_hash: device.secret_hash,
        seed_source: null,
        created_at: now,
        disabled_at: device.disabled ? now : null,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          name: device.name,
          secret_hash: device.secret_hash,
          // Kept when it was disabled before: the time it was first disabled.
          disabled_at: device.disabled ? sql`coalesce(devices.disabled_at, ${now})` : null,
        }),
      )
      .execute();
    await trx.deleteFrom('device_facilities').where('device_id', '=', device.id).execute();
    await trx
      .insertInto('device_facilities')
      .values(device.facility_ids.map((facility_id) => ({ device_id: device.id, facility_id })))
      .execute();
  }
}
