import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMoney, formatUnits } from '../claims/claimsFormat';
import { seriesTotals, type PosPoint } from './posChart';

const UNITS_COLOUR = '#1d4ed8';
const REVENUE_COLOUR = '#0b6b3a';

const compactMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
});

/**
 * Units sold (bars, left axis) and revenue (line, right axis) per period end, with the same
 * figures as text for people who do not read the chart.
 */
export function PosChart({ points, partial }: { points: PosPoint[]; partial: boolean }) {
  const totals = seriesTotals(points);
  const first = points[0]?.date;
  const last = points.at(-1)?.date;
  return (
    <figure className="pos-chart" aria-labelledby="pos-chart-title">
      <figcaption>
        <h2 id="pos-chart-title">Units and revenue over time</h2>
        <p className="hint">
          {points.length === 0
            ? 'Nothing to chart.'
            : `${formatUnits(totals.units)} units sold for ${formatMoney(totals.revenue)} in periods ending ${first} to ${last}${partial ? ' (the newest rows only: narrow the dates to see all)' : ''}.`}
        </p>
      </figcaption>
      <div className="pos-chart-area" data-testid="pos-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" />
            <YAxis yAxisId="units" tickFormatter={(value: number) => formatUnits(value)} />
            <YAxis
              yAxisId="revenue"
              orientation="right"
              tickFormatter={(value: number) => compactMoney.format(value)}
            />
            <Tooltip
              formatter={(value, name) =>
                name === 'Revenue' ? formatMoney(Number(value)) : formatUnits(Number(value))
              }
            />
            <Legend />
            <Bar yAxisId="units" dataKey="units" name="Units sold" fill={UNITS_COLOUR} />
            <Line
              yAxisId="revenue"
              dataKey="revenue"
              name="Revenue"
              stroke={REVENUE_COLOUR}
              strokeWidth={2}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
