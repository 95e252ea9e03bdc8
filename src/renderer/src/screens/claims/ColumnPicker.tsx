import type { VisibilityState } from '@tanstack/react-table';
import { useState } from 'react';
import { storedVisibilityOf, type PickableColumn } from './columnVisibility';

export type { PickableColumn } from './columnVisibility';

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Which columns a table shows, remembered on this workstation under `key`. */
export function useColumnVisibility(
  key: string,
  columns: readonly PickableColumn[],
  defaults: VisibilityState,
): [VisibilityState, (next: VisibilityState) => void] {
  const [visibility, setVisibility] = useState(() =>
    storedVisibilityOf(readStored(key), columns, defaults),
  );
  const change = (next: VisibilityState) => {
    setVisibility(next);
    try {
      window.localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the choice lasts until the screen closes.
    }
  };
  return [visibility, change];
}

/** Check boxes that show or hide a table's columns; at least one stays shown. */
export function ColumnPicker({
  columns,
  visibility,
  onChange,
}: {
  columns: readonly PickableColumn[];
  visibility: VisibilityState;
  onChange: (next: VisibilityState) => void;
}) {
  const shown = columns.filter((column) => visibility[column.id] !== false);
  return (
    <details className="claims-columns">
      <summary>Columns ({shown.length} shown)</summary>
      <fieldset>
        <legend>Show these columns</legend>
        {columns.map((column) => {
          const checked = visibility[column.id] !== false;
          return (
            <label key={column.id} className="checkbox">
              <input
                type="checkbox"
                checked={checked}
                disabled={checked && shown.length === 1}
                onChange={(event) => onChange({ ...visibility, [column.id]: event.target.checked })}
              />
              {column.label}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}
