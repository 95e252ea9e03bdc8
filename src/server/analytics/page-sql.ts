import { sql, type RawBuilder } from 'kysely';
import { LABEL_PRINT_METRICS } from '../../shared/fulfilment-activity';
import { ORDER_TIMESTAMP_FIELDS } from '../../shared/orders';
import type { OrdersTable } from '../db/schema';

/*
 * The analytics page statement, SQLite edition (JSON1 functions); its PostgreSQL twin is
 * ./page-sql.postgres.ts (jsonb), with the same parameters in the same places.
 */

/** One facility's orders, or those of several. */
export type AnalyticsPageKind = 'facility' | 'facilities';

/** The order's timestamps the rows carry (every one a column of orders). */
export const TIME_COLUMNS = ORDER_TIMESTAMP_FIELDS satisfies readonly (keyof OrdersTable)[];

export const LABELS = sql.join(LABEL_PRINT_METRICS.map((metric) => sql.lit(metric)));

/**
 * The whole page as one JSON array text (`page`, or null for none): the page of orders (newest
 * first) and, per order, its lines, packed units per SKU and the counts of its pallets, cartons,
 * SKU lines and activity. `p(n)` is the n-th parameter: 0 the facility id (a JSON array of ids
 * for 'facilities'), 1 and 2 the user's brand (or null), 3 and 4 the order (or null), 5 the
 * limit, 6 the offset.
 */
export function analyticsPageSql(
  kind: AnalyticsPageKind,
  p: (n: number) => RawBuilder<unknown>,
): RawBuilder<{ page: string | null }> {
  return sql<{ page: string | null }>`
    select json_group_array(json_object(
      'id', o.id, 'picksheet_code', o.picksheet_code, 'status', o.status,
      'brand_name', b.name, 'retailer_name', r.name,
      'times', json_object(${sql.join(TIME_COLUMNS.map((c) => sql`${sql.lit(c)}, ${sql.ref(`o.${c}`)}`))}),
      'lines', json((select json_group_array(json_object('sku', i.sku, 'upc', i.upc,
          'quantity', i.quantity) order by i.line_number)
        from order_items i where i.order_id = o.id)),
      'packed', json((select json_group_object(k.sku, k.quantity) from (
          select s.sku, sum(s.quantity) as quantity from cartons c
          join carton_skus s on s.carton_id = c.id where c.order_id = o.id group by s.sku) k)),
      'pallets', (select count(*) from pallets p where p.order_id = o.id),
      'cartons', (select count(*) from cartons c where c.order_id = o.id),
      'units', (select coalesce(sum(s.quantity), 0) from cartons c
        join carton_skus s on s.carton_id = c.id where c.order_id = o.id),
      'skus', (select count(distinct s.sku) from cartons c
        join carton_skus s on s.carton_id = c.id where c.order_id = o.id),
      'labels', (select coalesce(sum(a.count), 0) from order_activity a
        where a.order_id = o.id and a.kind = 'LABEL_PRINT' and a.metric in (${LABELS})),
      'unique_labels', (select count(distinct a.metric || '|' || coalesce(a.sscc, a.carton_id, a.pallet_id, a.id))
        from order_activity a
        where a.order_id = o.id and a.kind = 'LABEL_PRINT' and a.metric in (${LABELS})),
      'vas_actions', (select coalesce(sum(a.count), 0) from order_activity a
        where a.order_id = o.id and a.kind = 'ACTION' and a.action_type = 'VAS')
    ) order by o.created_at desc, o.id desc) as page
    from (
      select * from orders
      where ${
        kind === 'facility'
          ? // One facility: its (facility_id, created_at, id) index gives the page in order.
            sql`facility_id = ${p(0)}`
          : // Several: walk orders newest first (orders_created) and keep the user's; the
            // unary + keeps SQLite from sorting every order of those facilities instead.
            sql`+facility_id in (select value from json_each(${p(0)}))`
      }
        and (${p(1)} is null or brand_id = ${p(2)})
        and (${p(3)} is null or id = ${p(4)})
      order by created_at desc, id desc
      limit ${p(5)} offset ${p(6)}
    ) o
    join brands b on b.id = o.brand_id
    join retailers r on r.id = o.retailer_id`;
}
