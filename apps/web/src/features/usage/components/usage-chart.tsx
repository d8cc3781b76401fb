import { Chart, useChart } from '@chakra-ui/charts';
import { Box } from '@chakra-ui/react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartBar {
  name: string;
  input: number;
  output: number;
}

/**
 * A legend's colour square. Chakra's own swatch parses the colour it is given, and a theme token
 * (a CSS variable) is not one it can read: the legend showed its labels with no colour.
 */
const swatch = (color: string) => <Box boxSize="2.5" borderRadius="sm" bg={color} flexShrink={0} />;

/**
 * Input and output tokens as stacked bars, one per day, agent or model (recharts through Chakra's
 * chart package, so it follows the theme and the colour mode). The table below it holds the same
 * numbers for screen readers; the chart is one labelled image.
 */
export function UsageChart({ bars, label }: { bars: ChartBar[]; label: string }) {
  const chart = useChart({
    data: bars,
    series: [
      {
        name: 'input',
        label: 'Input tokens',
        color: 'brand.solid',
        stackId: 'tokens',
        icon: swatch('brand.solid'),
      },
      {
        name: 'output',
        label: 'Output tokens',
        color: 'orange.solid',
        stackId: 'tokens',
        icon: swatch('orange.solid'),
      },
    ],
  });
  return (
    <Chart.Root
      chart={chart}
      h="64"
      aspectRatio="auto"
      role="img"
      aria-label={label}
      data-testid="usage-chart"
    >
      {/* `responsive`: recharts 3 sizes the chart to the box (Chakra's CSS makes it fill it). */}
      <BarChart data={chart.data} responsive accessibilityLayer={false}>
        <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
        <XAxis dataKey={chart.key('name')} axisLine={false} tickLine={false} />
        <YAxis
          axisLine={false}
          tickLine={false}
          tickFormatter={chart.formatNumber({ notation: 'compact' })}
        />
        <Tooltip
          cursor={{ fill: chart.color('bg.muted') }}
          isAnimationActive={false}
          content={<Chart.Tooltip />}
        />
        <Legend content={<Chart.Legend />} />
        {chart.series.map((item) => (
          <Bar
            key={item.name}
            isAnimationActive={false}
            dataKey={chart.key(item.name)}
            fill={chart.color(item.color)}
            stackId={item.stackId}
          />
        ))}
      </BarChart>
    </Chart.Root>
  );
}
