import type { VisibilityState } from '@tanstack/react-table';

export interface PickableColumn {
  id: string;
  label: string;
}

/** Stored choices that still name real columns; anything else falls back to the defaults. */
export function visibilityFrom(
  stored: unknown,
  columns: readonly PickableColumn[],
  defaults: VisibilityState,
): VisibilityState {
  if (typeof stored !== 'object' || stored === null) return defaults;
  const visibility: VisibilityState = { ...defaults };
  for (const column of columns) {
    const value = (stored as Record<string, unknown>)[column.id];
    if (typeof value === 'boolean') visibility[column.id] = value;
  }
  return visibility;
}

/** A choice as stored (JSON text), read as `visibilityFrom` does; unreadable text is the defaults. */
export function storedVisibilityOf(
  text: string | null,
  columns: readonly PickableColumn[],
  defaults: VisibilityState,
): VisibilityState {
  if (text === null) return defaults;
  try {
    return visibilityFrom(JSON.parse(text) as unknown, columns, defaults);
  } catch {
    return defaults;
  }
}
