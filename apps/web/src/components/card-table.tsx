import { Box, Table } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A table on wide screens (from the `lg` breakpoint, where the columns fit beside the sidebar) that
 * becomes a stack of cards below it, where the columns would scroll sideways: spread these on
 * the rows (`CARD_ROW`) and cells (`CARD_CELL`) inside a `CardTable`. The explicit roles keep
 * it a table for assistive technology in both layouts; a row places its cells with
 * `gridTemplateAreas` and each cell's `gridArea`. The table's layout is fixed: the header's widths
 * hold, and a column without one takes the rest (its cells truncate instead of widening the table).
 */
const CARD_TABLE = {
  role: 'table',
  display: { base: 'block', lg: 'table' },
  tableLayout: { lg: 'fixed' },
  bg: { base: 'transparent', lg: 'bg' },
} as const;

/** The column headers: below `lg` each card says what its values are instead. */
const CARD_TABLE_HEADER = {
  role: 'rowgroup',
  display: { base: 'none', lg: 'table-header-group' },
} as const;

const CARD_TABLE_BODY = {
  role: 'rowgroup',
  display: { base: 'block', lg: 'table-row-group' },
} as const;

/** A row: a bordered card laid out as a grid on a phone. */
export const CARD_ROW = {
  role: 'row',
  display: { base: 'grid', lg: 'table-row' },
  gap: '2',
  p: { base: '3', lg: '0' },
  mb: { base: '3', lg: '0' },
  borderWidth: { base: '1px', lg: '0' },
  rounded: { base: 'lg', lg: 'none' },
} as const;

/** A table cell on wide screens, a block in the row's card grid on a phone. */
export const CARD_CELL = {
  role: 'cell',
  display: { base: 'block', lg: 'table-cell' },
  p: { base: '0', lg: '2' },
  borderBottomWidth: { base: '0', lg: '1px' },
} as const;

/** The frame around the table: a border on wide screens only (each card has its own). */
const CARD_TABLE_FRAME = {
  borderWidth: { base: '0', lg: '1px' },
  rounded: 'md',
  overflowX: { lg: 'auto' },
} as const;

/** A column header of a card table, with the width it holds on wide screens. */
export interface CardColumn {
  label: string;
  w?: string;
  textAlign?: 'end';
}

/** The table itself: its frame, the header row of `columns`, and the rows given as children. */
export function CardTable(props: {
  label: string;
  busy: boolean;
  columns: readonly CardColumn[];
  children: ReactNode;
}) {
  return (
    <Box {...CARD_TABLE_FRAME}>
      <Table.Root size="sm" {...CARD_TABLE} aria-busy={props.busy} aria-label={props.label}>
        <Table.Header {...CARD_TABLE_HEADER}>
          <Table.Row role="row">
            {props.columns.map(({ label, ...width }) => (
              <Table.ColumnHeader key={label} role="columnheader" {...width}>
                {label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body {...CARD_TABLE_BODY}>{props.children}</Table.Body>
      </Table.Root>
    </Box>
  );
}
