import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { seedBundleSchema, type SeedBundle } from '../../shared/seed';
import { climbingDirectoryError, climbsOutOfDataDir } from '../inventory';
import type { Database } from '../db/schema';
import { findUserIdByEmail, linkBrandFacility, rowExists, upsertById, upsertUser } from './queries';
import {
  hashPassword,
  needsRehash,
  PASSWORD_COST,
  verifyPassword,
  type PasswordCost,
} from '../access';
import { sealOrderDocumentsJson } from '../core/sealed-order-documents';
import { sealTransportJson } from '../core/secret-box';
import { importSeedBilling } from '../billing';
import { importSeedChargebacks, importSeedPosReports } from '../claims';
import { importSeedOrders } from '../orders';
import { importSeedTransactions } from '../transactions';
import { hashSeedDevices, importSeedDevices } from '../sync';
import { SeedError } from '../core/seed-support';

// Section modules throw SeedError too; it lives in seed-support so they need not import this file.
export { SeedError } from '../core/seed-support';

export interface SeedSummary {
  [section: string]: number;
}

/** Validates the shape and flags ids used twice within one section. */
export function parseSeedBundle(input: unknown): SeedBundle {
  const parsed = seedBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = formatPath(issue.path);
    const detail =
      issue.code === 'unrecognized_keys'
        ? `unknown key(s) ${issue.keys.join(', ')}`
        : issue.message;
    throw new SeedError(`Invalid seed bundle at ${where}: ${detail}`);
  }
  const bundle = parsed.data;
  const idKeys: [keyof SeedBundle, string][] = [
    ['organizations', 'id'],
    ['facilities', 'id'],
    ['brands', 'brand_id'],
    ['retailers', 'retailer_id'],
    ['users', 'email'],
    ['connections', 'id'],
    ['orders', 'id'],
  ];
  for (const [section, key] of idKeys) {
    const seen = new Map<string, number>();
    (bundle[section] as Record<string, unknown>[] | undefined)?.forEach((entry, index) => {
      const value = String(entry[key]).toLowerCase();
      const first = seen.get(value);
      if (first !== undefined) {
        throw new SeedError(
          `Invalid seed bundle at ${section}[${index}].${key}: duplicate '${String(entry[key])}' (also ${section}[${first}])`,
        );
      }
      seen.set(value, index);
    });
  }
  bundle.connections?.forEach((connection, index) => {
    const { transport } = connection;
    if (transport.type === 'file' && climbsOutOfDataDir(transport.directory)) {
      throw new SeedError(
        `Invalid seed bundle at connections[${index}].transport.directory: connection '${connection.id}': ${climbingDirectoryError(transport.directory)}`,
      );
    }
  });
  return bundle;
}

function formatPath(path: PropertyKey[]): string {
  return (
    path.reduce<string>(
      (text, part) =>
        typeof part === 'number'
          ? `${text}[${part}]`
          : text
            ? `${text}.${String(part)}`
            : String(part),
      '',
    ) || 'the top level'
  );
}

export interface SeedImportOptions {
  /** scrypt cost for new hashes; PASSWORD_COST unless a test lowers it. */
  passwordCost?: PasswordCost;
  /**
   * Names a bundle whose content never changes under this name (e.g. the built-in demo). A user
   * whose password this source last set or confirmed keeps the hash without running scrypt again.
   */
  source?: string;
}

/** The stored hash to keep or make for a bundle user, and the seed source that vouches for it. */
async function passwordOf(
  existing: { password_hash: string; seed_source: string | null } | undefined,
  password: string,
  { passwordCost = PASSWORD_COST, source }: SeedImportOptions,
) {
  if (existing && source !== undefined && existing.seed_source === source) {
    return { password_hash: existing.password_hash, seed_source: source };
  }
  if (existing && (await verifyPassword(password, existing.password_hash))) {
    const password_hash = needsRehash(existing.password_hash, passwordCost)
      ? await hashPassword(password, passwordCost)
      : existing.password_hash;
    return { password_hash, seed_source: source ?? existing.seed_source };
  }
  return { password_hash: await hashPassword(password, passwordCost), seed_source: source ?? null };
}

/**
 * Imports a bundle in one transaction: all or nothing, upsert by id (users by email), so importing
 * the same bundle twice changes nothing. Passwords are hashed before the transaction starts.
 */
export async function importSeedBundle(
  db: Kysely<Database>,
  input: unknown,
  options: SeedImportOptions = {},
): Promise<SeedSummary> {
  const bundle = parseSeedBundle(input);
  const users = await Promise.all(
    (bundle.users ?? []).map(async (user) => {
      const email = user.email.toLowerCase();
      const existing = await findUserIdByEmail(db, email);
      return {
        ...user,
        id: existing?.id ?? randomUUID(),
        email,
        ...(await passwordOf(existing, user.password, options)),
      };
    }),
  );

  const devices = await hashSeedDevices(db, bundle.devices ?? [], options);

  await db.transaction().execute(async (trx) => {
    const requireRow = async (
      table: 'organizations' | 'facilities' | 'brands' | 'retailers',
      id: string,
      where: string,
    ) => {
      if (!(await rowExists(trx, table, id))) {
        throw new SeedError(
          `Invalid seed bundle at ${where}: ${table.replace(/s$/, '')} '${id}' does not exist`,
        );
      }
    };
    for (const org of bundle.organizations ?? []) await upsertById(trx, 'organizations', org);
    for (const [i, facility] of (bundle.facilities ?? []).entries()) {
      await requireRow(
        'organizations',
        facility.organization_id,
        `facilities[${i}].organization_id`,
      );
      await upsertById(trx, 'facilities', facility);
    }
    for (const brand of bundle.brands ?? []) {
      await upsertById(trx, 'brands', {
        id: brand.brand_id,
        name: brand.name,
        external_brand_code: brand.external_brand_code ?? null,
        gs1_company_prefix: brand.gs1_company_prefix ?? null,
      });
    }
    for (const retailer of bundle.retailers ?? []) {
      await upsertById(trx, 'retailers', { id: retailer.retailer_id, name: retailer.name });
    }
    for (const [i, link] of (bundle.brand_facilities ?? []).entries()) {
      await requireRow('brands', link.brand_id, `brand_facilities[${i}].brand_id`);
      await requireRow('facilities', link.facility_id, `brand_facilities[${i}].facility_id`);
      await linkBrandFacility(trx, link.brand_id, link.facility_id);
    }
    for (const [i, user] of users.entries()) {
      if (user.brand_id) await requireRow('brands', user.brand_id, `users[${i}].brand_id`);
      for (const [j, facilityId] of user.facility_ids.entries()) {
        await requireRow('facilities', facilityId, `users[${i}].facility_ids[${j}]`);
      }
      for (const [j, pair] of user.admin.entries()) {
        await requireRow('brands', pair.brand_id, `users[${i}].admin[${j}].brand_id`);
        await requireRow('facilities', pair.facility_id, `users[${i}].admin[${j}].facility_id`);
      }
      await upsertUser(
        trx,
        {
          id: user.id,
          email: user.email,
          password_hash: user.password_hash,
          brand_id: user.brand_id ?? null,
          seed_source: user.seed_source,
        },
        user.facility_ids,
        user.admin,
      );
    }
    for (const [i, connection] of (bundle.connections ?? []).entries()) {
      await requireRow(
        'organizations',
        connection.organization_id,
        `connections[${i}].organization_id`,
      );
      await requireRow('brands', connection.brand_id, `connections[${i}].brand_id`);
      await requireRow('retailers', connection.retailer_id, `connections[${i}].retailer_id`);
      await upsertById(trx, 'connections', {
        id: connection.id,
        organization_id: connection.organization_id,
        brand_id: connection.brand_id,
        retailer_id: connection.retailer_id,
        kind: connection.kind,
        enabled: connection.enabled ? 1 : 0,
        transport_json: sealTransportJson(JSON.stringify(connection.transport)),
        edi_json: connection.edi ? JSON.stringify(connection.edi) : null,
        sender: connection.sender,
        order_documents_json: connection.order_documents
          ? sealOrderDocumentsJson(JSON.stringify(connection.order_documents))
          : null,
      } as never);
    }
    // Each section is imported by its feature's module, which throws SeedError naming the entry.
    await importSeedOrders(trx, bundle.orders ?? [], requireRow, new Date().toISOString());
    await importSeedTransactions(trx, bundle.transactions ?? [], requireRow);
    await importSeedBilling(trx, bundle.billing ?? [], requireRow);
    await importSeedChargebacks(trx, bundle.chargebacks ?? [], requireRow);
    await importSeedPosReports(trx, bundle.pos_reports ?? [], requireRow);
    await importSeedDevices(trx, devices, requireRow);
  });
  return Object.fromEntries(
    Object.entries(bundle).map(([section, entries]) => [section, (entries as unknown[]).length]),
  );
}
