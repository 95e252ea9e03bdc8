import { z } from 'zod';
import { uuidSchema } from './ids';
import { seedBillingEntrySchema } from './billing-seed';
import { seedChargebackSchema, seedPosRowSchema } from './claims-seed';
import { orderDocumentSettingsSchema } from './order-documents';
import { hostKeySha256Schema } from './sftp-host-key';
import { seedOrderSchema } from './order-seed';
import { connectionSenderSchema, seedDeviceSchema } from './sync-seed';
import { seedTransactionSchema } from './transactions-seed';

/** The seed bundle of DESIGN.md. Objects are strict: an unknown key is an error naming the entry. */
const id = uuidSchema;
const nonEmpty = z.string().trim().min(1).max(200);

export const ediSettingsSchema = z.strictObject({
  sender_qualifier: z.string().regex(/^[A-Z0-9]{2}$/, 'must be 2 upper-case letters or digits'),
  sender_id: z.string().trim().min(2).max(15),
  receiver_qualifier: z.string().regex(/^[A-Z0-9]{2}$/, 'must be 2 upper-case letters or digits'),
  receiver_id: z.string().trim().min(2).max(15),
  version: z
    .string()
    .regex(/^\d{6}$/, 'must be 6 digits, e.g. 004010')
    .default('004010'),
  usage_indicator: z.enum(['P', 'T']).default('P'),
});

export { HOST_KEY_SHA256_PATTERN } from './sftp-host-key';

export const transportSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('http'),
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.strictObject({
    type: z.literal('sftp'),
    host: nonEmpty,
    port: z.number().int().min(1).max(65535).default(22),
    username: nonEmpty,
    password: z.string().optional(),
    privateKey: z.string().optional(),
    directory: z.string().min(1),
    host_key_sha256: hostKeySha256Schema,
  }),
  z.strictObject({ type: z.literal('file'), directory: z.string().min(1) }),
]);

export const connectionSchema = z
  .strictObject({
    id,
    organization_id: id,
    brand_id: id,
    retailer_id: id,
    kind: z.enum(['EDI_846', 'DIRECT_API']),
    enabled: z.boolean().default(true),
    transport: transportSchema,
    edi: ediSettingsSchema.nullish(),
    sender: connectionSenderSchema.default('central'),
    /** Order documents (855, 856, 810, 997) this connection exchanges; absent: none. */
    order_documents: orderDocumentSettingsSchema.nullish(),
  })
  .refine((c) => c.kind !== 'EDI_846' || c.edi, {
    message: 'an EDI_846 connection needs edi settings',
    path: ['edi'],
  });

export const seedBundleSchema = z.strictObject({
  organizations: z.array(z.strictObject({ id, name: nonEmpty })).optional(),
  facilities: z
    .array(
      z.strictObject({
        id,
        organization_id: id,
        name: nonEmpty,
        external_facility_code: nonEmpty,
      }),
    )
    .optional(),
  brands: z
    .array(
      z.strictObject({
        brand_id: id,
        name: nonEmpty,
        external_brand_code: z.string().max(200).nullable().optional(),
        /** GS1 company prefix, 7 to 10 digits: the SSCCs of the brand's cartons and pallets. */
        gs1_company_prefix: z
          .string()
          .regex(/^\d{7,10}$/, 'must be 7 to 10 digits')
          .nullable()
          .optional(),
      }),
    )
    .optional(),
  retailers: z.array(z.strictObject({ retailer_id: id, name: nonEmpty })).optional(),
  brand_facilities: z.array(z.strictObject({ brand_id: id, facility_id: id })).optional(),
  users: z
    .array(
      z.strictObject({
        email: z.email().max(320),
        password: z.string().min(8).max(1024),
        brand_id: id.nullable().optional(),
        facility_ids: z.array(id).default([]),
        admin: z.array(z.strictObject({ brand_id: id, facility_id: id })).default([]),
      }),
    )
    .optional(),
  connections: z.array(connectionSchema).optional(),
  orders: z.array(seedOrderSchema).optional(),
  transactions: z.array(seedTransactionSchema).optional(),
  billing: z.array(seedBillingEntrySchema).optional(),
  chargebacks: z.array(seedChargebackSchema).optional(),
  pos_reports: z.array(seedPosRowSchema).optional(),
  devices: z.array(seedDeviceSchema).optional(),
});

export type SeedBundle = z.infer<typeof seedBundleSchema>;
export type SeedConnection = z.infer<typeof connectionSchema>;
