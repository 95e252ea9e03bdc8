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
 * SQLite: the whole order (lines, pallets, cartons, SKU lines) as one JSON document built by
 * SQLite's JSON functions; the PostgreSQL twin is ./order-document-sql.postgres.ts.
 */
export function orderDocumentSql(orderId: string): RawBuilder<{ document: string }> {
  return sql<{ document: string }>`
    select json_object(
      'order', json_object(${pairsOf('o', ORDER_TEXT_COLUMNS)},
        'brand_name', b.name, 'external_brand_code', b.external_brand_code,
        'facility_name', f.name, 'external_facility_code', f.external_facility_code,
        'retailer_name', r.name),
      'times', json_object(${pairsOf('o', ORDER_TIME_COLUMNS)}),
      'address', json_object(
        'ship_to_contact', json(o.ship_to_json),
        'bill_to_contact', json(o.bill_to_json),
        'mark_for_contact', json(o.mark_for_json)),
      'items', json((
        select json_group_array(json_object(${pairsOf('i', ITEM_COLUMNS)},
          'trackers', json(i.trackers_json), 'pass_through', json(i.pass_through_json))
          order by i.line_number)
        from order_items i where i.order_id = o.id)),
      'pallets', json((
        select json_group_array(json_object(${pairsOf('p', PALLET_COLUMNS)},
          'cartons', json((
            select json_group_array(json_object(${pairsOf('c', CARTON_COLUMNS)},
              'skus', json((
                select json_group_array(json_object(
                  'sku', s.sku, 'upc', s.upc,
                  'serial_numbers', json(s.serial_numbers_json), 'quantity', s.quantity)
                  order by s.sku, s.id)
                from carton_skus s where s.carton_id = c.id)))
              order by c.created_at, c.id)
            from cartons c where c.pallet_id = p.id)))
          order by p.created_at, p.id)
        from pallets p where p.order_id = o.id))
    ) as document
    from orders o
    join brands b on b.id = o.brand_id
    join facilities f on f.id = o.facility_id
    join retailers r on r.id = o.retailer_id
    where o.id = ${orderId}`;
}
