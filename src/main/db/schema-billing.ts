/** Tables of billing prices per brand (migration-sets/billing.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by that feature
export interface BillingTables {}
