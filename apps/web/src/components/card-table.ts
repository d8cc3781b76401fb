/**
 * A table on wide screens (from the `lg` breakpoint, where the columns fit beside the sidebar) that
 * becomes a stack of cards below it, where the columns would scroll sideways: spread these on
 * Table.Root, Table.Header, Table.Body, each Table.Row and each Table.Cell. The explicit roles keep
 * it a table for assistive technology in both layouts; a row places its cells with
 * `gridTemplateAreas` and each cell's `gridArea`. The table's layout is fixed: the header's widths
 * hold, and a column without one takes the rest (its cells truncate instead of widening the table).
 */
export const CARD_TABLE = {
  role: 'table',
  display: { base: 'block', lg: 'table' },
  tableLayout: { lg: 'fixed' },
  bg: { base: 'transparent', lg: 'bg' },
} as const;

/** The column headers: below `lg` each card says what its values are instead. */
export const CARD_TABLE_HEADER = {
  role: 'rowgroup',
  display: { base: 'none', lg: 'table-header-group' },
} as const;

export const CARD_TABLE_BODY = {
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
export const CARD_TABLE_FRAME = {
  borderWidth: { base: '0', lg: '1px' },
  rounded: 'md',
  overflowX: { lg: 'auto' },
} as const;
