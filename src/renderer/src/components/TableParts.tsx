import { flexRender, type Header, type Table } from '@tanstack/react-table';
import type { ReactNode } from 'react';

type Direction = false | 'asc' | 'desc';

/** A column header that is a sort button, saying which way the column is sorted. */
export function SortableHeader({
  label,
  direction,
  onSort,
}: {
  label: ReactNode;
  direction: Direction;
  onSort: ((event: unknown) => void) | undefined;
}) {
  return (
    <th
      scope="col"
      aria-sort={
        direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
      }
    >
      <button type="button" className="sort-button" onClick={onSort}>
        {label}
        <span className={`sort-indicator${direction ? ' active' : ''}`} aria-hidden="true">
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** The header of a column the table sorts itself (TanStack's sorting state). */
export function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  if (header.isPlaceholder) return <th scope="col" />;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) return <th scope="col">{label}</th>;
  return (
    <SortableHeader
      label={label}
      direction={header.column.getIsSorted()}
      onSort={header.column.getToggleSortingHandler()}
    />
  );
}

/** The rows of a table, one cell per visible column. */
export function TableRows<T>({ table }: { table: Table<T> }) {
  return (
    <tbody>
      {table.getRowModel().rows.map((row) => (
        <tr key={row.id}>
          {row.getVisibleCells().map((cell) => (
            <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}
