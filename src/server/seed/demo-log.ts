/**
 * The demo's transaction log beyond the hand-written rows of resources/demo-transactions.json:
 * about 2,000 rows over 60 days, so the log, its filters and its charts show what they are for.
 * Made at import from the demo's own connections, facilities and orders with a fixed seed and a
 * fixed calendar (the same as the demo orders'), so every import gives the very same rows and
 * nothing in the log names an order, brand or facility the demo does not hold:
 * - inventory advices: each enabled connection sends the stock of every facility its brand works
 *   at in the connection's organisation, a morning snapshot and updates during the day (fewer at
 *   weekends); now and then an attempt fails and is retried, a few give up;
 * - order creates: every demo order without a hand-written create row gets one at its created_at.
 */
import { seededRandom } from './seeded-random';

/** The last day of the generated log (UTC), the day of the demo's latest hand-written row. */
export const DEMO_LOG_LAST_DAY = '2026-11-17';
export const DEMO_LOG_DAYS = 60;
/** Any fixed number: the same seed gives the same log at every import. */
const DEMO_LOG_SEED = 0x5eed_0019;

interface DemoConnection {
  id: string;
  organization_id: string;
  brand_id: string;
  retailer_id: string;
  kind: string;
  enabled: boolean;
  transport: { type: string; directory?: string };
}
interface DemoOrder {
  id: string;
  po_number: string;
  brand_id: string;
  retailer_id: string;
  facility_id: string;
  created_at: string;
  items: { sku: string }[];
}
export interface DemoSource {
  facilities: { id: string; organization_id: string; external_facility_code: string }[];
  brands: { brand_id: string; name: string; external_brand_code: string | null }[];
  brand_facilities: { brand_id: string; facility_id: string }[];
  connections: DemoConnection[];
  orders: DemoOrder[];
}
/** A hand-written row, as far as the generator needs it. */
interface WrittenRow {
  action_type: string;
  order_id?: string | null;
}

/** Seed-bundle transaction entries (validated by the seed import like any other). */
export interface DemoLogEntry {
  transaction_id: string;
  action_type: 'SEND_INVENTORY_ADVICE' | 'CREATE_ORDERS_FROM';
  brand_id: string;
  retailer_id: string;
  facility_id: string;
  order_id?: string;
  correlation_id: string;
  duration_ms: number;
  execution_status: 'SUCCESS' | 'FAILURE' | 'RETRY';
  error_message?: string;
  request_method: string;
  request_url: string;
  request_payload: unknown;
  response_body?: unknown;
  response_status?: number;
  created_at: string;
}

const DAY_MS = 86_400_000;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Ids of generated rows: the hand-written ones use 7d000000-…-8000-…, these …-8001-…. */
const rowId = (n: number) => `7d000000-0000-4000-8001-${pad(n, 12)}`;
const stamp = (time: Date) => time.toISOString().replace(/[-:T]/g, '').slice(0, 12);

/** Why a file written into a partner's folder on this computer fails now and then. */
const TRANSIENT_ERRORS = [
  'EBUSY: resource busy or locked, open',
  'EACCES: permission denied, open',
  'EAGAIN: resource temporarily unavailable, write',
];

export function demoLogEntries(demo: DemoSource, written: readonly WrittenRow[]): DemoLogEntry[] {
  const random = seededRandom(DEMO_LOG_SEED);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const entries: DemoLogEntry[] = [];
  let serial = 0;

  const brandCode = new Map(
    demo.brands.map((b) => [b.brand_id, b.external_brand_code ?? b.name.replace(/\W+/g, '')]),
  );
  const skuCount = new Map<string, number>();
  for (const order of demo.orders) {
    const skus = new Set(order.items.map((item) => item.sku));
    skuCount.set(order.brand_id, Math.max(skuCount.get(order.brand_id) ?? 0, skus.size));
  }
  const targets = demo.connections
    .filter((c) => c.enabled)
    .flatMap((connection) =>
      demo.facilities
        .filter(
          (f) =>
            f.organization_id === connection.organization_id &&
            demo.brand_facilities.some(
              (link) => link.brand_id === connection.brand_id && link.facility_id === f.id,
            ),
        )
        .map((facility) => ({ connection, facility })),
    );

  const lastDay = Date.parse(`${DEMO_LOG_LAST_DAY}T00:00:00.000Z`);
  for (let day = DEMO_LOG_DAYS - 1; day >= 0; day -= 1) {
    const midnight = lastDay - day * DAY_MS;
    const weekend = [0, 6].includes(new Date(midnight).getUTCDay());
    for (const { connection, facility } of targets) {
      const sends = 1 + (weekend ? between(0, 2) : between(4, 5));
      // A morning snapshot (11:00-12:30 UTC), then updates through the working day.
      const minutes = [between(660, 750)];
      for (let i = 1; i < sends; i += 1) minutes.push(between(780, 1380));
      minutes.sort((a, b) => a - b);
      for (const minute of minutes) {
        const at = new Date(midnight + minute * 60_000 + between(0, 59) * 1000);
        const extension = connection.kind === 'EDI_846' ? 'edi' : 'json';
        const code = `${brandCode.get(connection.brand_id) ?? 'BRAND'}-${facility.external_facility_code}`;
        const fileName = `${code}-${stamp(at)}.${extension}`.toLowerCase();
        const snapshot = `snapshot-${code}-${stamp(at)}`.toLowerCase();
        const bytes =
          (connection.kind === 'EDI_846' ? 180 : 120) * (skuCount.get(connection.brand_id) ?? 4) +
          between(200, 900);
        // Most attempts succeed; about 1 in 25 fails and is retried 2 minutes later; a few give up.
        const roll = random();
        const attempts: DemoLogEntry['execution_status'][] =
          roll < 0.006
            ? ['RETRY', 'RETRY', 'FAILURE']
            : roll < 0.04
              ? ['RETRY', 'SUCCESS']
              : ['SUCCESS'];
        const error = TRANSIENT_ERRORS[between(0, TRANSIENT_ERRORS.length - 1)]!;
        attempts.forEach((status, attempt) => {
          serial += 1;
          const path = `${connection.transport.directory ?? 'outbox'}/${fileName}`;
          entries.push({
            transaction_id: rowId(serial),
            action_type: 'SEND_INVENTORY_ADVICE',
            brand_id: connection.brand_id,
            retailer_id: connection.retailer_id,
            facility_id: facility.id,
            correlation_id: snapshot,
            duration_ms: between(8, 90),
            execution_status: status,
            ...(status === 'SUCCESS' ? {} : { error_message: `${error} '${path}'` }),
            request_method: 'PUT',
            request_url: path,
            request_payload: { attempt: attempt + 1, bytes },
            created_at: new Date(at.getTime() + attempt * 120_000).toISOString(),
          });
        });
      }
    }
  }

  const created = new Set(
    written.filter((r) => r.action_type === 'CREATE_ORDERS_FROM').map((r) => r.order_id),
  );
  for (const order of demo.orders) {
    if (created.has(order.id)) continue;
    serial += 1;
    entries.push({
      transaction_id: rowId(serial),
      action_type: 'CREATE_ORDERS_FROM',
      brand_id: order.brand_id,
      retailer_id: order.retailer_id,
      facility_id: order.facility_id,
      order_id: order.id,
      correlation_id: `wms-import-${order.po_number}`,
      duration_ms: between(30, 70),
      execution_status: 'SUCCESS',
      request_method: 'POST',
      request_url: '/api/v1/orders/create',
      request_payload: { po_number: order.po_number },
      response_body: { message: 'Order created successfully', data: { order_id: order.id } },
      response_status: 200,
      created_at: order.created_at,
    });
  }
  return entries;
}
