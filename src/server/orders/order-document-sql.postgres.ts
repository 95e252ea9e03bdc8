import { sql, type RawBuilder } from 'kysely';
import {
  CARTON_COLUMNS,
  ITEM_COLUMNS,
  ORDER_TEXT_COLUMNS,
  ORDER_TIME_COLUMNS,
  PALLET_COLUMNS,
  pairsOf,
} from './order-document-columns';

/**
 * PostgreSQL twin of ./order-document-sql.ts: json_build_object and json_agg (json keeps the key
 * order, and no function here nears PostgreSQL's 100-argument limit). json_agg over no rows is
 * NULL where SQLite's json_group_array is `[]`, hence the coalesce. The document comes back as
 * text, as SQLite gives it, and is parsed once by the caller.
 */
export function orderDocumentSql(orderId: string): RawBuilder<{ document: string }> {
  const list = (rows: RawBuilder<unknown>) => sql`coalesce((${rows}), '[]'::json)`;
  return sql<{ document: string }>`
    select json_build_object(
      'order', json_build_object(${pairsOf('o', ORDER_TEXT_COLUMNS)},
        'brand_name', b.name, 'external_brand_code', b.external_brand_code,
        'facility_name', f.name, 'external_facility_code', f.external_facility_code,
        'retailer_name', r.name),
      'times', json_build_object(${pairsOf('o', ORDER_TIME_COLUMNS)}),
      'address', json_build_object(
        'ship_to_contact', o.ship_to_json::json,
        'bill_to_contact', o.bill_to_json::json,
        'mark_for_contact', o.mark_for_json::json),
      'items', ${list(sql`
        select json_agg(json_build_object(${pairsOf('i', ITEM_COLUMNS)},
          'trackers', i.trackers_json::json, 'pass_through', i.pass_through_json::json)
          order by i.line_number)
        from order_items i where i.order_id = o.id`)},
      'pallets', ${list(sql`
        select json_agg(json_build_object(${pairsOf('p', PALLET_COLUMNS)},
          'cartons', ${list(sql`
            select json_agg(json_build_object(${pairsOf('c', CARTON_COLUMNS)},
              'skus', ${list(sql`
                select json_agg(json_build_object(
                  'sku', s.sku, 'upc', s.upc,
                  'serial_numbers', s.serial_numbers_json::json, 'quantity', s.quantity)
                  order by s.sku, s.id)
                from carton_skus s where s.carton_id = c.id`)})
              order by c.created_at, c.id)
            from cartons c where c.pallet_id = p.id`)})
          order by p.created_at, p.id)
        from pallets p where p.order_id = o.id`)}
    )::text as document
    from orders o
    join brands b on b.id = o.brand_id
    join facilities f on f.id = o.facility_id
    join retailers r on r.id = o.retailer_id
    where o.id = ${orderId}`;
}
