import { formatTime as formatInstant } from '../../format/time';
import type { OrderDetails, OrderStatus } from '../../../../shared/orders';

/** A stored instant in the workstation's locale (its own text when it does not parse). */
export function formatTime(iso: string): string {
  return formatInstant(iso);
}

/** A stored instant to the minute, for tables: `Nov 13, 2026, 3:02 PM`. */
export function formatShortTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A schema message shown next to its field, as a sentence: `is required` reads
 * `This field is required`, `must be a whole number` reads `Must be a whole number`.
 */
export function fieldMessage(message: string): string {
  if (/^is\b/.test(message)) return `This field ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * A calendar date (`YYYY-MM-DD`, or the date part of an ISO instant) as written, so a date never
 * moves a day with the workstation's time zone; null stays null.
 */
export function formatDate(value: string | null): string | null {
  if (value === null) return null;
  const match = /^\d{4}-\d{2}-\d{2}/.exec(value);
  return match ? match[0] : value;
}

/** One step of the status timeline. */
export interface TimelineStep {
  label: string;
  status: OrderStatus | null;
  at: string | null;
}

/**
 * The order's steps in the status flow (Open → Picking → Packed → Staged → Loaded → Shipped)
 * with when each happened; a cancelled order ends with its cancellation.
 */
export function timelineOf(order: OrderDetails): TimelineStep[] {
  const steps: TimelineStep[] = [
    { label: 'Created', status: 'Open', at: order.created_at },
    { label: 'Picking started', status: 'Picking', at: order.started_at },
    { label: 'Packed', status: 'Packed', at: order.packed_at },
    { label: 'Staged', status: 'Staged', at: order.staged_at },
    { label: 'Loaded', status: 'Loaded', at: order.loaded_at },
    { label: 'Shipped', status: 'Shipped', at: order.shipped_at ?? order.asn_sent_at },
  ];
  if (order.status === 'Cancelled') {
    return [
      ...steps.filter((step) => step.at !== null),
      { label: 'Cancelled', status: 'Cancelled', at: order.cancelled_at },
    ];
  }
  return steps;
}

/** A file size for people: bytes, kB or MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
