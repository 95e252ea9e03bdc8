import { sql, type RawBuilder } from 'kysely';
import { LABELS, TIME_COLUMNS, type AnalyticsPageKind } from './page-sql';

/*
 * PostgreSQL twin of ./page-sql.ts: the same document built with jsonb functions, returned as
 * text so both engines answer the same `page`. Differences from SQLite's JSON1: aggregates over
 * no row are null, not '[]' or '{}' (hence the coalesces); bare parameters need a type where
 * PostgreSQL cannot infer one (`$2 is null`); and there is no unary + on text.
 */
export function analyticsPageSql(
  kind: AnalyticsPageKind,
  p: (n: number) => RawBuilder<unknown>,
): RawBuilder<{ page: string | null }> {
  return sql<{ page: string | null }>`
    select (jsonb_agg(jsonb_build_object(
      'id', o.id, 'picksheet_code', o.picksheet_code, 'status', o.status,
      'brand_name', b.name, 'retailer_name', r.name,
      'times', jsonb_build_object(${sql.join(TIME_COLUMNS.map((c) => sql`${sql.lit(c)}::text, ${sql.ref(`o.${c}`)}`))}),
      'lines', (select coalesce(jsonb_agg(jsonb_build_object('sku', i.sku, 'upc', i.upc,
          'quantity', i.quantity) order by i.line_number), '[]'::jsonb)
        from order_items i where i.order_id = o.id),
      'packed', (select coalesce(jsonb_object_agg(k.sku, k.quantity), '{}'::jsonb) from (
          select s.sku, sum(s.quantity) as quantity from cartons c
          join carton_skus s on s.carton_id = c.id where c.order_id = o.id group by s.sku) k),
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
    ) order by o.created_at desc, o.id desc))::text as page
    from (
      select * from orders
      where ${
        kind === 'facility'
          ? sql`facility_id = ${p(0)}::text`
          : sql`facility_id in (select jsonb_array_elements_text(${p(0)}::jsonb))`
      }
        and (${p(1)}::text is null or brand_id = ${p(2)}::text)
        and (${p(3)}::text is null or id = ${p(4)}::text)
      order by created_at desc, id desc
      limit ${p(5)}::bigint offset ${p(6)}::bigint
    ) o
    join brands b on b.id = o.brand_id
    join retailers r on r.id = o.retailer_id`;
}
