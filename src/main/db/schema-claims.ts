/** Tables of chargebacks and POS report rows (migration-sets/claims.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by that feature
export interface ClaimsTables {}
