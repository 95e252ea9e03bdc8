import type { KeyboardEvent } from 'react';

/** What Tab stops at, before the checks that need the element itself (tabIndex, layout). */
const TAB_STOPS = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]',
].join(', ');

/**
 * Where Tab must go instead of where the browser would take it, as an index into the `count`
 * tab stops of a modal (`current` is the focused one's index, -1 when the focus is on none of
 * them): the first after the last, the last before the first, else null (the browser's own move
 * stays inside). With no tab stops at all, -1: the focus stays where it is.
 */
export function wrappedTabStop(current: number, count: number, backwards: boolean): number | null {
  if (count === 0) return -1;
  if (backwards) return current <= 0 ? count - 1 : null;
  return current === -1 || current === count - 1 ? 0 : null;
}

/** The tab stops inside `container`, in document order: enabled, tabbable and laid out. */
function tabStopsIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TAB_STOPS)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
}

/**
 * A keydown handler for a modal `<dialog>`: Tab and Shift+Tab go round its own controls. A
 * native modal makes the page behind it inert, but Tab from its last control still leaves it
 * (for the browser's own toolbar), and a keyboard user then has to find the way back.
 */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabStopsIn(event.currentTarget);
  const current = stops.findIndex((element) => element === document.activeElement);
  const next = wrappedTabStop(current, stops.length, event.shiftKey);
  if (next === null) return;
  event.preventDefault();
  stops[next]?.focus();
}
