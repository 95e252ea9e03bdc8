/** Every time on screen shows seconds: deliveries seconds apart must read differently. */
export { formatTime } from '../../format/time';

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
