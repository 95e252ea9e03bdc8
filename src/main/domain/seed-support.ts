/** Checks that a row a bundle entry refers to exists; throws the SeedError naming `where`. */
export type RequireRow = (
  table: 'organizations' | 'facilities' | 'brands' | 'retailers',
  id: string,
  where: string,
) => Promise<void>;
