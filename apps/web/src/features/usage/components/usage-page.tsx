import {
  Badge,
  Button,
  Center,
  Field,
  HStack,
  Progress,
  SegmentGroup,
  SimpleGrid,
  Stack,
  Stat,
  Text,
} from '@chakra-ui/react';
import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FiBarChart2, FiDownload } from 'react-icons/fi';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { Select } from '../../../components/select';
import { toaster } from '../../../components/ui/toaster';
import { saveFile } from '../../../lib/download';
import { fetchUsageCsv, getUsageOptions, type UsageReport } from '../api/usage-api';
import {
  csvFileName,
  formatCost,
  formatCount,
  GROUPS,
  PERIODS,
  rowLabel,
  rowsForScreen,
  usageQuery,
  type Grouping,
  type PeriodDays,
} from '../usage-logic';
import { USAGE_TEXT } from '../usage-text';
import { UsageChart } from './usage-chart';
import { UsageTable } from './usage-table';
import { usePageQuery } from '../../../lib/page-query';

/** The Usage screen: the period's totals, a chart and a table by day, agent or model, and a CSV. */
export function UsagePage() {
  const [days, setDays] = useState<PeriodDays>(30);
  const [grouping, setGrouping] = useState<Grouping>('day');
  const query = useMemo(() => usageQuery(days, grouping), [days, grouping]);
  // The previous report stays on screen while another period or grouping loads.
  const report = usePageQuery({ ...getUsageOptions({ query }), placeholderData: keepPreviousData });
  const download = useMutation({
    mutationFn: () => fetchUsageCsv(query),
    onSuccess: (blob) => saveFile(blob, csvFileName(query)),
    onError: () =>
      toaster.create({
        title: USAGE_TEXT.downloadFailed,
        description: USAGE_TEXT.downloadFailedDetail,
        type: 'error',
      }),
  });
  const groupLabel = GROUPS.find((g) => g.value === grouping)!.label;

  let content;
  if (report.isPending) {
    content = <Center py="10">{USAGE_TEXT.loading}</Center>;
  } else if (report.isError) {
    content = (
      <LoadError
        title={USAGE_TEXT.loadError}
        onRetry={() => void report.refetch()}
        retrying={report.isFetching}
      />
    );
  } else {
    content = <UsageReportView report={report.data} grouping={grouping} groupLabel={groupLabel} />;
  }

  return (
    <Stack gap="6" pb="10">
      <PageHeader icon={FiBarChart2} title={USAGE_TEXT.title} intro={USAGE_TEXT.intro}>
        <Button variant="outline" onClick={() => download.mutate()} loading={download.isPending}>
          <FiDownload aria-hidden="true" /> {USAGE_TEXT.download}
        </Button>
      </PageHeader>
      <HStack gap="4" wrap="wrap" align="end">
        <Field.Root maxW="48">
          <Field.Label>{USAGE_TEXT.period}</Field.Label>
          <Select size="sm" value={days} options={PERIODS} onChange={setDays} />
        </Field.Root>
        <SegmentGroup.Root
          size="sm"
          aria-label={USAGE_TEXT.grouping}
          value={grouping}
          onValueChange={(details) => setGrouping(details.value as Grouping)}
        >
          <SegmentGroup.Indicator />
          <SegmentGroup.Items items={GROUPS.map((g) => ({ value: g.value, label: g.label }))} />
        </SegmentGroup.Root>
      </HStack>
      {content}
    </Stack>
  );
}

function UsageReportView(props: { report: UsageReport; grouping: Grouping; groupLabel: string }) {
  const { report, grouping } = props;
  const rows = rowsForScreen(report, grouping);
  const { totals } = report;
  return (
    <Stack gap="6">
      <BudgetLine budget={report.budget} />
      <SimpleGrid columns={{ base: 2, md: 5 }} gap="4">
        <Total label={USAGE_TEXT.columns.turns} value={formatCount(totals.turns)} />
        <Total
          label="Tokens"
          value={formatCount(totals.total_tokens)}
          hint={totals.estimated ? USAGE_TEXT.estimated : undefined}
        />
        <Total label={USAGE_TEXT.columns.cost} value={formatCost(totals.cost)} />
        <Total label={USAGE_TEXT.columns.tools} value={formatCount(totals.tool_calls)} />
        <Total label={USAGE_TEXT.columns.errors} value={formatCount(totals.errors)} />
      </SimpleGrid>
      {report.rows.length === 0 ? (
        <Center py="10" color="fg.muted" data-testid="usage-empty">
          {USAGE_TEXT.empty}
        </Center>
      ) : (
        <>
          <UsageChart
            label={USAGE_TEXT.chartLabel(props.groupLabel)}
            bars={rows.map((r) => ({
              name: rowLabel(r, grouping),
              input: r.input_tokens,
              output: r.output_tokens,
            }))}
          />
          <UsageTable rows={report.rows} grouping={grouping} groupLabel={props.groupLabel} />
          {totals.estimated && (
            <Text fontSize="sm" color="fg.muted">
              {USAGE_TEXT.estimatedNote}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

function BudgetLine({ budget }: { budget: UsageReport['budget'] }) {
  const used = formatCount(budget.used_tokens);
  if (budget.monthly_tokens === null) {
    return (
      <Text data-testid="usage-budget">
        {USAGE_TEXT.month(used)} {USAGE_TEXT.noBudget}
      </Text>
    );
  }
  const resets = new Date(budget.resets_at).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    dateStyle: 'long',
  });
  const over = budget.used_tokens >= budget.monthly_tokens;
  return (
    <Stack gap="2" data-testid="usage-budget">
      <Text>{USAGE_TEXT.budget(used, formatCount(budget.monthly_tokens), resets)}</Text>
      <Progress.Root
        value={Math.min(budget.used_tokens, budget.monthly_tokens)}
        max={budget.monthly_tokens}
        colorPalette={over ? 'red' : 'brand'}
        maxW="md"
      >
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {over && <Text color="fg.error">{USAGE_TEXT.overBudget}</Text>}
    </Stack>
  );
}

/** One total; its hint sits inside the value, as a description list holds only terms and values. */
function Total({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Stat.Root borderWidth="1px" rounded="md" p="3">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText alignItems="center" flexWrap="wrap">
        {value}
        {hint && (
          <Badge size="sm" colorPalette="orange">
            {hint}
          </Badge>
        )}
      </Stat.ValueText>
    </Stat.Root>
  );
}
