import { isCalendarDate } from '../../shared/inventory';
import { UUID_TEXT } from '../../shared/ids';

/** A cell's value, or the reason it was refused. */
export type CellResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): CellResult<T> => ({ ok: true, value });
const refuse = <T>(reason: string): CellResult<T> => ({ ok: false, reason });

/**
 * A dollar amount: `1234.5`, `$1,234.50`, `-12.00` or `(12.00)` (negative), at most two decimals.
 */
export function moneyCell(text: string): CellResult<number> {
  let body = text.replace(/[\s$,]/g, '');
  let sign = 1;
  const bracketed = /^\((.*)\)$/.exec(body);
  if (bracketed) {
    body = bracketed[1]!;
    sign = -1;
  }
  if (!/^[-+]?(\d+(\.\d{0,2})?|\.\d{1,2})$/.test(body)) {
    return refuse('must be an amount in dollars with at most 2 decimals, e.g. 1234.56');
  }
  return ok(sign * Number(body) + 0);
}

/** A whole number of units: `12`, `1,234`, `-3`, `12.0`. */
export function unitsCell(text: string): CellResult<number> {
  const body = text.replace(/[\s,]/g, '');
  if (!/^[-+]?\d+(\.0*)?$/.test(body) || Math.abs(Number(body)) > 1_000_000_000) {
    return refuse('must be a whole number');
  }
  return ok(Number(body) + 0);
}

/** A percentage: `35.2`, `35.2%`. */
export function percentCell(text: string): CellResult<number> {
  const body = text.replace(/[\s%]/g, '');
  if (!/^[-+]?(\d+(\.\d+)?|\.\d+)$/.test(body)) return refuse('must be a number (a percentage)');
  return ok(Number(body));
}

/** A date as YYYY-MM-DD, or as US exports write it, M/D/YYYY. */
export function dateCell(text: string): CellResult<string> {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : text;
  if (!isCalendarDate(iso)) return refuse('must be a real date written YYYY-MM-DD or MM/DD/YYYY');
  return ok(iso);
}

export function textCell(text: string, max: number): CellResult<string> {
  return text.length > max ? refuse(`must be at most ${max} characters`) : ok(text);
}

export function uuidCell(text: string): CellResult<string> {
  return UUID_TEXT.test(text) ? ok(text.toLowerCase()) : refuse('must be a UUID');
}

/** `YYYY-MM-DD` moved by `days`. */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00.000Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}
