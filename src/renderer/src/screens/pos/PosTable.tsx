import { createColumnHelper, type VisibilityState } from '@tanstack/react-table';
import type { PosRow } from '../../../../shared/claims';
import { DataTable } from '../../components/DataTable';
import { formatMoney, formatUnits } from '../claims/claimsFormat';
import type { PickableColumn } from '../claims/ColumnPicker';

const column = createColumnHelper<PosRow>();
const units = (id: keyof PosRow & string, header: string) =>
  column.accessor((row) => row[id] as number, {
    id,
    header,
    cell: (info) => formatUnits(info.getValue()),
  });
const money = (id: keyof PosRow & string, header: string) =>
  column.accessor((row) => row[id] as number, {
    id,
    header,
    cell: (info) => formatMoney(info.getValue()),
  });

const COLUMNS = [
  column.accessor('sku', { id: 'sku', header: 'SKU' }),
  column.accessor('retailer', { id: 'retailer', header: 'Retailer' }),
  column.accessor('location', {
    id: 'location',
    header: 'Store',
    cell: (info) => info.getValue() || '—',
  }),
  column.accessor('start_date', { id: 'start_date', header: 'Period start' }),
  column.accessor('end_date', { id: 'end_date', header: 'Period end' }),
  units('units_sold', 'Units sold'),
  units('returns', 'Returns'),
  units('net_units', 'Net units'),
  money('revenue', 'Revenue'),
  money('cogs', 'Cost of goods'),
  money('gross_margin', 'Gross margin'),
  column.accessor('margin_percent', {
    id: 'margin_percent',
    header: 'Margin %',
    cell: (info) => `${info.getValue().toFixed(2)}%`,
  }),
  units('inventory_units', 'On hand'),
  units('on_order_units', 'On order'),
  units('damaged_inventory_units', 'Damaged'),
];

/** Columns the clerk may hide, in table order. */
export const POS_COLUMNS: readonly PickableColumn[] = COLUMNS.map((definition) => ({
  id: definition.id!,
  label: String(definition.header),
}));

/** Shown until the clerk chooses otherwise: the week's sales at a glance. */
export const DEFAULT_POS_VISIBILITY: VisibilityState = {
  start_date: false,
  returns: false,
  cogs: false,
  gross_margin: false,
  on_order_units: false,
  damaged_inventory_units: false,
};

/** One page of POS rows; a header click sorts the rows on screen. */
export function PosTable({
  rows,
  caption,
  visibility,
}: {
  rows: PosRow[];
  caption: string;
  visibility: VisibilityState;
}) {
  return (
    <div className="pos-table">
      <DataTable
        data={rows}
        columns={COLUMNS}
        caption={caption}
        getRowId={(row) => row.id}
        columnVisibility={visibility}
      />
    </div>
  );
}
