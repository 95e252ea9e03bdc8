import { z } from 'zod';
import { uuidSchema } from './ids';

/** Seed bundle `devices`: workstations allowed to sync with a central (secret hashed on import). */
export const seedDeviceSchema = z.strictObject({
  id: uuidSchema,
  name: z.string().trim().min(1).max(200),
  facility_ids: z.array(uuidSchema).min(1),
  secret: z.string().min(16, 'must be at least 16 characters').max(500),
  /** A lost or retired workstation: its sessions and tokens are refused from the next request. */
  disabled: z.boolean().default(false),
});
export type SeedDevice = z.input<typeof seedDeviceSchema>;

/** Who sends a connection's deliveries on a synced install (docs/sync.md section 5). */
export const connectionSenderSchema = z.enum(['central', 'workstation']);
