import { createColumnHelper } from '@tanstack/react-table';
import type { FulfilmentLine, FulfilmentView } from '../../../../shared/fulfilment';
import { DataTable } from '../../components/DataTable';

const column = createColumnHelper<FulfilmentLine>();
const NONE = '—';

const columns = [
  column.accessor('line_number', { header: 'Line', cell: (info) => info.getValue() + 1 }),
  column.accessor('sku', {
    header: 'SKU',
    cell: (info) => {
      const upc = info.row.original.upc;
      return (
        <>
          <code>{info.getValue()}</code>
          {upc ? <span className="packing-upc hint">UPC {upc}</span> : null}
        </>
      );
    },
  }),
  column.accessor('description', {
    header: 'Description',
    cell: (info) => info.getValue() ?? NONE,
  }),
  column.accessor('ordered_quantity', { header: 'Ordered' }),
  column.accessor('packed_quantity', {
    header: 'Packed',
    cell: (info) => <strong className="packing-count">{info.getValue()}</strong>,
  }),
  column.accessor('remaining_quantity', {
    header: 'Left',
    cell: (info) =>
      info.getValue() === 0 ? (
        <span className="packing-line-done">0 (all packed)</span>
      ) : (
        info.getValue()
      ),
  }),
];

/** Ordered against packed per order line. */
export function LinesTable({ view }: { view: FulfilmentView }) {
  const { ordered_units: ordered, packed_units: packed } = view.totals;
  return (
    <section className="panel" aria-labelledby="packing-lines-heading">
      <h2 id="packing-lines-heading">
        Lines: {packed} of {ordered} units packed
      </h2>
      <DataTable
        data={view.lines}
        columns={columns}
        caption="Ordered and packed, per line"
        getRowId={(line) => String(line.line_number)}
      />
    </section>
  );
}
