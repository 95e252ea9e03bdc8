import { describe, expect, it } from 'vitest';
import { wrappedTabStop } from '../../src/renderer/src/components/keepTabInside';

describe('wrappedTabStop', () => {
  it('goes round from the last tab stop to the first, and back', () => {
    expect(wrappedTabStop(2, 3, false)).toBe(0);
    expect(wrappedTabStop(0, 3, true)).toBe(2);
  });

  it('leaves the moves between tab stops to the browser', () => {
    expect(wrappedTabStop(0, 3, false)).toBeNull();
    expect(wrappedTabStop(1, 3, false)).toBeNull();
    expect(wrappedTabStop(2, 3, true)).toBeNull();
  });

  it('brings a focus on none of the tab stops (the dialog, a heading) to the first or last', () => {
    expect(wrappedTabStop(-1, 3, false)).toBe(0);
    expect(wrappedTabStop(-1, 3, true)).toBe(2);
  });

  it('keeps the focus where it is when there is nothing to go to', () => {
    expect(wrappedTabStop(-1, 0, false)).toBe(-1);
    expect(wrappedTabStop(-1, 0, true)).toBe(-1);
  });

  it('with one tab stop, stays on it', () => {
    expect(wrappedTabStop(0, 1, false)).toBe(0);
    expect(wrappedTabStop(0, 1, true)).toBe(0);
  });
});
