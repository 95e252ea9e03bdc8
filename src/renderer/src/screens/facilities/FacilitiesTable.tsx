import { Link } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../components/DataTable';
import type { FacilityRow } from './loadFacilityRows';

const NONE = '—';
const column = createColumnHelper<FacilityRow>();

/** Joined names, or undefined when there are none so those rows sort last. */
const joined = (names: string[]) => (names.length > 0 ? names.join(', ') : undefined);

const columns = [
  column.accessor('name', { header: 'Facility' }),
  column.accessor('code', { header: 'Code', cell: (info) => <code>{info.getValue()}</code> }),
  column.accessor((row) => joined(row.brands), {
    id: 'brands',
    header: 'Brands',
    cell: (info) => info.getValue() ?? NONE,
    sortUndefined: 'last',
  }),
  column.accessor((row) => joined(row.retailers), {
    id: 'retailers',
    header: 'Retailers',
    cell: (info) => info.getValue() ?? NONE,
    sortUndefined: 'last',
  }),
  // A facility's row leads to its work: its orders and its stock.
  column.display({
    id: 'open',
    header: 'Open',
    cell: ({ row }) => (
      <span className="row-links">
        <Link
          to="/orders"
          search={{ facility: row.original.id }}
          aria-label={`Orders at ${row.original.name}`}
        >
          Orders
        </Link>
        <Link
          to="/inventory"
          search={{ facility: row.original.id }}
          aria-label={`Stock at ${row.original.name}`}
        >
          Stock
        </Link>
      </span>
    ),
  }),
];

export function FacilitiesTable({ rows }: { rows: FacilityRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={columns}
      caption={`${rows.length} ${rows.length === 1 ? 'facility' : 'facilities'} you can access`}
      getRowId={(row) => row.id}
      initialSorting={[{ id: 'name', desc: false }]}
    />
  );
}
