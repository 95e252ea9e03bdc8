import type { ShipByStatus } from '../../../../shared/ship-by';

/** What "Ship by" means, said where the date is shown. */
export const SHIP_BY_MEANING =
  'Ship by is the latest ship date, or the requested ship date when the order has none: the date compliance judges the shipment against.';

const WORDS: Record<ShipByStatus, string> = { late: 'Late', due_today: 'Due today' };

/** A ship-by day with a "Late" or "Due today" badge: said in words, not by colour alone. */
export function ShipByDay({ day, status }: { day: string | null; status: ShipByStatus | null }) {
  if (!day) return <>—</>;
  return (
    <span className="ship-by">
      {day}
      {status ? <span className={`badge ship-by-${status}`}>{WORDS[status]}</span> : null}
    </span>
  );
}
