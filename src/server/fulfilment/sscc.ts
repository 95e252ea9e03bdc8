import type { Db } from '../db/db';
import {
  findBrandForSscc,
  highestStoredSerial,
  raiseSsccCounter,
  ssccInUse,
  takeBlockSerial,
  takeSsccSerial,
  workstationDeviceId,
} from './queries';
import { conflict } from '../core/errors';
import { gs1CheckDigit, isValidSscc } from '../../shared/sscc';

// The check digit and validity are pure and shared with the UI (src/shared/sscc.ts).
export { gs1CheckDigit, isValidSscc };

/**
 * SSCC-18 (GS1 Serial Shipping Container Code): extension digit, the brand's GS1 company prefix
 * (7-10 digits), a serial reference filling the rest of 17 digits, and the GS1 mod-10 check digit.
 */

/** Extension digits: 0 for cartons, 1 for pallets (so the two are told apart at a glance). */
export const SSCC_EXTENSION = { carton: 0, pallet: 1 } as const;
export type SsccUnit = keyof typeof SSCC_EXTENSION;

/** How many serials a company prefix has (its serial reference has 16 - prefix length digits). */
export const serialCapacity = (prefix: string) => 10 ** (16 - prefix.length) - 1;

/** The SSCC of a serial: 18 digits, check digit last. */
export function buildSscc(extension: number, prefix: string, serial: number): string {
  if (!/^\d{7,10}$/.test(prefix)) throw new Error('buildSscc: prefix must be 7 to 10 digits');
  if (!Number.isInteger(extension) || extension < 0 || extension > 9) {
    throw new Error('buildSscc: extension must be one digit');
  }
  if (!Number.isInteger(serial) || serial < 0 || serial > serialCapacity(prefix)) {
    throw new Error('buildSscc: serial out of range for the prefix');
  }
  const body = `${extension}${prefix}${String(serial).padStart(16 - prefix.length, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}

export const gs1PrefixMissing = (brand: { id: string; name: string }) =>
  conflict(
    `Brand ${brand.name} has no GS1 company prefix; an admin of the brand sets it (PUT /api/v1/brands/${brand.id}/gs1-prefix) before cartons and pallets get SSCCs`,
  );

/** Past this many SSCCs already taken in a row, something else is wrong. */
const MAX_SKIPS = 3;

/**
 * A fresh SSCC for a carton or pallet of the brand, in the caller's transaction. The serial comes
 * from the prefix's durable counter (never reused, also across restarts); an SSCC already stored
 * (e.g. imported with a bundle) moves the counter past the highest stored serial of the prefix.
 */
export async function allocateSscc(trx: Db, brandId: string, unit: SsccUnit): Promise<string> {
  const brand = await findBrandForSscc(trx, brandId);
  if (!brand) throw new Error(`allocateSscc: brand ${brandId} does not exist`);
  const prefix = brand.gs1_company_prefix;
  if (!prefix) throw gs1PrefixMissing(brand);
  const deviceId = await workstationDeviceId(trx);
  if (deviceId) return allocateFromBlocks(trx, prefix, deviceId, unit);
  for (let attempt = 0; attempt <= MAX_SKIPS; attempt += 1) {
    const serial = await takeSsccSerial(trx, prefix);
    if (serial > serialCapacity(prefix)) {
      throw conflict(`The SSCC serials of GS1 company prefix ${prefix} are used up`);
    }
    const sscc = buildSscc(SSCC_EXTENSION[unit], prefix, serial);
    if (!(await ssccInUse(trx, sscc))) return sscc;
    await raiseSsccCounter(trx, prefix, await highestStoredSerial(trx, prefix));
  }
  throw new Error(`allocateSscc: no free SSCC for prefix ${prefix}`);
}

export const NO_SERIALS_LEFT_MESSAGE =
  'No SSCC serials left on this workstation; connect to the central service to get more';

/**
 * A synced workstation takes serials only from the blocks the central leased to it, so SSCCs
 * made offline on two workstations never clash. A serial already in use (an imported SSCC) is
 * skipped.
 */
async function allocateFromBlocks(trx: Db, prefix: string, deviceId: string, unit: SsccUnit) {
  for (let attempt = 0; attempt <= MAX_SKIPS; attempt += 1) {
    const serial = await takeBlockSerial(trx, prefix, deviceId);
    if (serial === null) throw conflict(NO_SERIALS_LEFT_MESSAGE);
    const sscc = buildSscc(SSCC_EXTENSION[unit], prefix, serial);
    if (!(await ssccInUse(trx, sscc))) return sscc;
  }
  throw new Error(`allocateSscc: no free SSCC for prefix ${prefix}`);
}
