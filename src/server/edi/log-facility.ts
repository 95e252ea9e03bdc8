/**
 * The facility a row of the inbound path is logged at when it has no order of its own (a refused
 * PO, a 997 of a group that made none or several orders, a polled source's trouble). The
 * transaction log lists a row without a facility to the brand's users in every organisation
 * (docs/decisions, "Who sees which transaction row": made for brand-wide advice), but these rows
 * are one organisation's, their connection's; so they name a facility of it.
 */
import type { Db } from '../db/db';
import { connectionFacilities } from './ingest-queries';

/**
 * The connection's order facility when it is one of the brand's facilities in the connection's
 * organisation (`facilities`), else the first of those (by id); null when the brand works at
 * none there (the row then names no brand either: see ingest-log.ts).
 */
export function logFacilityAmong(
  facilities: readonly { id: string }[],
  orderFacilityId: string | null,
): string | null {
  if (orderFacilityId && facilities.some((facility) => facility.id === orderFacilityId)) {
    return orderFacilityId;
  }
  return facilities[0]?.id ?? null;
}

/** logFacilityAmong, reading the brand's facilities in the connection's organisation. */
export async function connectionLogFacility(
  db: Db,
  connection: { organization_id: string; brand_id: string },
  orderFacilityId: string | null,
): Promise<string | null> {
  return logFacilityAmong(
    await connectionFacilities(db, connection.organization_id, connection.brand_id),
    orderFacilityId,
  );
}
