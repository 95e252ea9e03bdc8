/** A seed bundle that cannot be imported; the message names the bad entry. Nothing was written. */
export class SeedError extends Error {}

/** Checks that a row a bundle entry refers to exists; throws the SeedError naming `where`. */
export type RequireRow = (
  table: 'organizations' | 'facilities' | 'brands' | 'retailers',
  id: string,
  where: string,
) => Promise<void>;
