import { z } from 'zod';
import { optionalUuid, pageNumber } from '../../routing/urlSearch';

/** The Inventory screen's URL state; an id that is not a UUID is dropped rather than an error. */
export const inventorySearchSchema = z.object({
  facility: optionalUuid,
  brand: optionalUuid,
  /** The page of Recent snapshots (1 when absent). */
  history: pageNumber,
});
export type InventorySearch = z.infer<typeof inventorySearchSchema>;
