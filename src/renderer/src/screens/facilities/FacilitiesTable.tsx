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
