import { describe, expect, it } from 'vitest';
import { seriesByDate, seriesTotals } from '../../src/renderer/src/screens/pos/posChart';

const row = (end_date: string, units_sold: number, revenue: number) => ({
  end_date,
  units_sold,
  revenue,
});

describe('POS chart series', () => {
  it('sums every SKU and store of one period end into one point, oldest first', () => {
    const points = seriesByDate([
      row('2026-11-21', 5, 100),
      row('2026-11-07', 2, 40.5),
      row('2026-11-21', 3, 60.25),
      row('2026-11-14', 0, 0),
      row('2026-11-07', 1, 19.5),
    ]);
    expect(points).toEqual([
      { date: '2026-11-07', units: 3, revenue: 60 },
      { date: '2026-11-14', units: 0, revenue: 0 },
      { date: '2026-11-21', units: 8, revenue: 160.25 },
    ]);
  });

  it('adds money in cents, so sums do not drift', () => {
    const points = seriesByDate([row('2026-11-07', 1, 0.1), row('2026-11-07', 1, 0.2)]);
    expect(points[0]!.revenue).toBe(0.3);
    const many = seriesByDate(Array.from({ length: 1000 }, () => row('2026-11-07', 1, 19.99)));
    expect(many).toEqual([{ date: '2026-11-07', units: 1000, revenue: 19990 }]);
  });

  it('is empty without rows, and totals add up the points', () => {
    expect(seriesByDate([])).toEqual([]);
    expect(seriesTotals([])).toEqual({ units: 0, revenue: 0 });
    const points = seriesByDate([row('2026-11-07', 2, 10.1), row('2026-11-14', 3, 20.2)]);
    expect(seriesTotals(points)).toEqual({ units: 5, revenue: 30.3 });
  });

  it('keeps negative figures (a week of net returns) as they are', () => {
    expect(seriesByDate([row('2026-11-07', -2, -30)])).toEqual([
      { date: '2026-11-07', units: -2, revenue: -30 },
    ]);
  });
});
