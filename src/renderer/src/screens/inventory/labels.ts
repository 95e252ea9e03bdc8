/** How a connection kind reads on screen (null: no connection was enabled). */
export function kindLabel(kind: string | null): string {
  switch (kind) {
    case null:
      return 'no connection';
    case 'EDI_846':
      return 'EDI 846';
    case 'DIRECT_API':
      return 'Direct feed';
    default:
      return kind;
  }
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** An ISO timestamp in the workstation's locale. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
