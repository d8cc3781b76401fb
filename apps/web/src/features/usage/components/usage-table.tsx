import { Badge, Table } from '@chakra-ui/react';
import { CARD_CELL, CARD_ROW, CardTable, type CardColumn } from '../../../components/card-table';
import type { UsageReport } from '../api/usage-api';
import { formatCost, formatCount, rowLabel, type Grouping } from '../usage-logic';
import { USAGE_TEXT } from '../usage-text';

type Row = UsageReport['rows'][number];

/** The figures of a row, in the columns' order. */
const FIGURES: { label: string; value: (row: Row) => string }[] = [
  { label: USAGE_TEXT.columns.turns, value: (r) => formatCount(r.turns) },
  { label: USAGE_TEXT.columns.input, value: (r) => formatCount(r.input_tokens) },
  { label: USAGE_TEXT.columns.output, value: (r) => formatCount(r.output_tokens) },
  { label: USAGE_TEXT.columns.cost, value: (r) => formatCost(r.cost) },
  { label: USAGE_TEXT.columns.tools, value: (r) => formatCount(r.tool_calls) },
  { label: USAGE_TEXT.columns.errors, value: (r) => formatCount(r.errors) },
];

/**
 * The report's rows: a table on a wide screen, a card per row on a narrow one, where each figure
 * says what it is, so no column is cut off or needs scrolling sideways.
 */
export function UsageTable(props: { rows: Row[]; grouping: Grouping; groupLabel: string }) {
  const columns: CardColumn[] = [
    { label: USAGE_TEXT.columns[props.grouping] },
    ...FIGURES.map(({ label }) => ({ label, w: '28', textAlign: 'end' as const })),
  ];
  return (
    <CardTable label={`${USAGE_TEXT.title} ${props.groupLabel.toLowerCase()}`} busy={false} columns={columns}>
      {props.rows.map((row) => {
        const label = rowLabel(row, props.grouping);
        return (
          <Table.Row
            key={label}
            aria-label={label}
            {...CARD_ROW}
            gridTemplateColumns="repeat(3, minmax(0, 1fr))"
          >
            <Table.Cell {...CARD_CELL} gridColumn="1 / -1" fontWeight="medium" overflowWrap="anywhere">
              {label}{' '}
              {row.estimated && (
                <Badge size="sm" colorPalette="orange">
                  {USAGE_TEXT.estimated}
                </Badge>
              )}
            </Table.Cell>
            {FIGURES.map(({ label: figure, value }) => (
              <Table.Cell
                key={figure}
                {...CARD_CELL}
                textAlign={{ base: 'start', lg: 'end' }}
                data-label={figure}
                // The header says what a figure is on a wide screen; on a card, the figure does.
                _before={{
                  content: 'attr(data-label)',
                  display: { base: 'block', lg: 'none' },
                  fontSize: 'xs',
                  color: 'fg.muted',
                }}
              >
                {value(row)}
              </Table.Cell>
            ))}
          </Table.Row>
        );
      })}
    </CardTable>
  );
}
