import { Link } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../components/DataTable';
import type { FacilityRow } from '../../api/facilityRows';

const NONE = '—';
const column = createColumnHelper<FacilityRow>();

/** Joined names, or undefined when there are none so those rows sort last. */
const joined = (names: string[]) => (names.length > 0 ? names.join(', ') : undefined);

/** A column of a facility's names (its brands or retailers), joined; none shows as a dash. */
const namesColumn = (id: 'brands' | 'retailers', header: string) =>
  column.accessor((row) => joined(row[id]), {
    id,
    header,
    cell: (info) => info.getValue() ?? NONE,
    sortUndefined: 'last',
  });

/** Where a facility's row leads: its orders and its stock, each filtered to the facility. */
const OPENS = [
  { to: '/orders', text: 'Orders', name: 'Orders at' },
  { to: '/inventory', text: 'Stock', name: 'Stock at' },
] as const;

const columns = [
  column.accessor('name', { header: 'Facility' }),
  column.accessor('code', { header: 'Code', cell: (info) => <code>{info.getValue()}</code> }),
  namesColumn('brands', 'Brands'),
  namesColumn('retailers', 'Retailers'),
  // A facility's row leads to its work: its orders and its stock.
  column.display({
    id: 'open',
    header: 'Open',
    cell: ({ row }) => (
      <span className="row-links">
        {OPENS.map((open) => (
          <Link
            key={open.to}
            to={open.to}
            search={{ facility: row.original.id }}
            aria-label={`${open.name} ${row.original.name}`}
          >
            {open.text}
          </Link>
        ))}
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
