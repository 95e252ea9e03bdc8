import { z } from 'zod';
import { uuidSchema } from './ids';

/**
 * Documents of an order (labels, packing slip, compliance report) and the label printer setting,
 * shared by the service (validation, OpenAPI) and the UI.
 */

/** What a label is for: a carton or a pallet (the path segment names the plural). */
export const LABEL_UNITS = ['cartons', 'pallets'] as const;
export type LabelUnits = (typeof LABEL_UNITS)[number];

/**
 * Label kinds: GS1-128 shipping label, QR code label (GS1 Digital Link), pallet placard. Parcel
 * labels come from the carrier (docs/decisions.md), so they are not made here.
 */
export const LABEL_KINDS = ['gs1', 'qr', 'placard'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

export const LABEL_FORMATS = ['pdf', 'zpl'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** `true`/`false` in a query string. */
const queryBoolean = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((value) => value === 'true');

export const labelQuerySchema = z.strictObject({
  kind: z.enum(LABEL_KINDS).default('gs1'),
  format: z.enum(LABEL_FORMATS).default('pdf'),
  /** `true`: this download is a print and is recorded (analytics and billing count it). */
  record: queryBoolean.default(false),
});
export type LabelQuery = z.infer<typeof labelQuerySchema>;

/** All labels of an order: which units (both when left out). */
export const orderLabelsQuerySchema = labelQuerySchema.extend({
  units: z.enum([...LABEL_UNITS, 'all']).default('all'),
});
export type OrderLabelsQuery = z.infer<typeof orderLabelsQuerySchema>;

export const orderDocumentParamsSchema = z.object({ order_id: uuidSchema });

export const unitLabelParamsSchema = z.object({
  order_id: uuidSchema,
  units: z.enum(LABEL_UNITS),
  unit_id: uuidSchema,
});
export type UnitLabelParams = z.infer<typeof unitLabelParamsSchema>;

export const packingSlipQuerySchema = z.strictObject({
  record: queryBoolean.default(false),
});

/** Most labels one print request sends (an order's cartons are far fewer). */
export const MAX_LABELS_PER_PRINT = 1000;

/** `POST .../labels/print`: the labels go to the label printer as ZPL. */
export const printLabelsBodySchema = z.strictObject({
  kind: z.enum(LABEL_KINDS).default('gs1'),
  /** Which units when no ids are named (both when left out). */
  units: z.enum([...LABEL_UNITS, 'all']).default('all'),
  /** Only these cartons / pallets of the order (each must belong to it). */
  carton_ids: z.array(uuidSchema).min(1).max(MAX_LABELS_PER_PRINT).optional(),
  pallet_ids: z.array(uuidSchema).min(1).max(MAX_LABELS_PER_PRINT).optional(),
});
export type PrintLabelsBody = z.infer<typeof printLabelsBodySchema>;

export const printLabelsResultSchema = z.object({
  labels: z.number().int(),
  bytes: z.number().int(),
  printer: z.object({ host: z.string(), port: z.number().int() }),
});
export type PrintLabelsResult = z.infer<typeof printLabelsResultSchema>;

/** A host name (RFC 1123 labels), an IPv4 address or an IPv6 address without brackets. */
const HOST_NAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const hostSchema = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'is required' })
  .refine(
    (host) =>
      HOST_NAME.test(host) || z.ipv4().safeParse(host).success || z.ipv6().safeParse(host).success,
    { message: 'must be a host name or an IP address' },
  );

/** The 409 of a print when no label printer is set. */
export const NO_LABEL_PRINTER = 'No label printer is set; set one in the label printer settings';
/** How the 409 of a print to a printer address that is not allowed begins. */
export const PRINTER_ADDRESS_REFUSED_PREFIX = 'The label printer cannot be at ';

export const DEFAULT_LABEL_PRINTER_PORT = 9100;
/** Printer ports only: raw printing (9100-9102), Zebra's alternative raw port (6101), LPD (515). */
export const LABEL_PRINTER_PORTS = [9100, 9101, 9102, 6101, 515] as const;

/**
 * A literal address no printer has: loopback, link-local (169.254/16, fe80::/10), unspecified,
 * multicast. Names are judged again by the service once resolved, before connecting.
 */
function isForbiddenPrinterHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(name);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 0 || (a === 169 && b === 254) || a >= 224;
  }
  if (!name.includes(':')) return false;
  return name === '::1' || name === '::' || /^fe[89ab]/.test(name) || name.startsWith('ff');
}

/** `PUT /api/v1/settings/label-printer`: where raw ZPL goes (a thermal printer's port 9100). */
export const labelPrinterBodySchema = z.strictObject({
  host: hostSchema.refine((host) => !isForbiddenPrinterHost(host), {
    message: 'must be a printer on the network, not this machine or a link-local address',
  }),
  port: z
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    // abort: a port out of range gets one message, not also the printer ports'.
    .min(1, { message: 'must be between 1 and 65535', abort: true })
    .max(65535, { message: 'must be between 1 and 65535', abort: true })
    .refine((port) => (LABEL_PRINTER_PORTS as readonly number[]).includes(port), {
      message: `must be a printer port: ${LABEL_PRINTER_PORTS.join(', ')}`,
    })
    .default(DEFAULT_LABEL_PRINTER_PORT),
});
export type LabelPrinterBody = z.infer<typeof labelPrinterBodySchema>;

export const labelPrinterSettingSchema = z.object({
  /** Null until someone sets the printer. */
  host: z.string().nullable(),
  port: z.number().int(),
  updated_at: z.string().nullable(),
});
export type LabelPrinterSetting = z.infer<typeof labelPrinterSettingSchema>;

/** Endpoint 16's answer: no message/data envelope. */
export const complianceReportSchema = z.object({
  filename: z.string(),
  mime_type: z.literal('application/pdf'),
  pdf_content: z.string(),
});
export type ComplianceReport = z.infer<typeof complianceReportSchema>;

/** Endpoint 16's unhandled-failure body (a shape of its own). */
export const complianceFailureSchema = z.object({ error: z.string(), order_id: z.string() });
