import { Alert, Button, Field, Grid, HStack, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Select } from '../../../components/select';
import { modelsOptions, type OfferedModel } from '../api/models-api';
import { AGENT_RULES, temperatureError } from '../agents-logic';
import { MODEL_TEXT } from '../constants';
import { FieldMessage, FieldRoot } from '../../../components/form-field';

export interface AgentModelFieldsProps {
  /** The chosen model's id; null: the default. */
  modelId: string | null;
  /** As typed; blank is the provider's default. */
  temperature: string;
  /** The saved model is no longer offered (the agent answers with the default). */
  staleModelId?: string | null;
  onChange: (change: { modelId?: string | null; temperature?: string }) => void;
  /** The server's refusals of the model or the temperature (a 422 naming `model_id`, `temperature`). */
  serverErrors?: { modelId?: string; temperature?: string };
}

/** The default's option value: the select needs a string, the API says null. */
const DEFAULT = '';

const priceOf = (model: OfferedModel) =>
  model.input_price_per_million === null || model.output_price_per_million === null
    ? undefined
    : MODEL_TEXT.price(model.input_price_per_million, model.output_price_per_million);

/** The model an agent answers with, and its temperature: the agent editor's "Model" section. */
export function AgentModelFields({
  modelId,
  temperature,
  staleModelId,
  onChange,
  serverErrors,
}: AgentModelFieldsProps) {
  const models = useQuery(modelsOptions());
  const tempError = temperatureError(temperature) ?? serverErrors?.temperature;
  // The message runs below both fields (the temperature's column is narrow) and still describes it.
  const tempErrorId = useId();
  const chosen = models.data?.find((m) => m.id === modelId);
  const fallback = models.data?.find((m) => m.default);
  const stale = staleModelId != null && modelId === staleModelId;
  return (
    <Stack gap="2">
      {/* Side by side from `sm`, the temperature's column wide enough for its label on one line
          (so the inputs line up); stacked on a phone, where the model's name would be cut off. */}
      <Grid templateColumns={{ base: '1fr', sm: 'minmax(0, 1fr) 9.5rem' }} gap="3" alignItems="start">
        <FieldRoot invalid={!!serverErrors?.modelId}>
          <Field.Label>{MODEL_TEXT.model}</Field.Label>
          {models.isPending ? (
            <Skeleton height="10" width="full" role="status" aria-label={MODEL_TEXT.loading} />
          ) : models.isError ? (
            <HStack gap="3" role="alert" minH="10">
              <Text fontSize="sm" color="fg.error">
                {MODEL_TEXT.loadError}
              </Text>
              <Button
                size="xs"
                variant="outline"
                onClick={() => void models.refetch()}
                loading={models.isFetching}
              >
                {MODEL_TEXT.retry}
              </Button>
            </HStack>
          ) : (
            <Select
              value={modelId ?? DEFAULT}
              options={[
                { value: DEFAULT, label: MODEL_TEXT.defaultOption(fallback?.label) },
                ...models.data.map((model) => ({
                  value: model.id,
                  label: model.default ? MODEL_TEXT.markedDefault(model.label) : model.label,
                })),
                ...(stale ? [{ value: staleModelId, label: MODEL_TEXT.staleOption(staleModelId) }] : []),
              ]}
              onChange={(value) => onChange({ modelId: value || null })}
            />
          )}
          <FieldMessage
            error={serverErrors?.modelId}
            help={
              chosen &&
              [chosen.context_window !== null && MODEL_TEXT.context(chosen.context_window), priceOf(chosen)]
                .filter(Boolean)
                .join(' · ')
            }
          />
        </FieldRoot>
        <FieldRoot invalid={tempError !== undefined}>
          <Field.Label>{MODEL_TEXT.temperature}</Field.Label>
          <Input
            type="number"
            inputMode="decimal"
            min={AGENT_RULES.temperature.min}
            max={AGENT_RULES.temperature.max}
            step={0.1}
            value={temperature}
            placeholder={MODEL_TEXT.temperaturePlaceholder}
            title={MODEL_TEXT.temperatureHelp}
            onChange={(event) => onChange({ temperature: event.currentTarget.value })}
            aria-describedby={tempError ? tempErrorId : undefined}
          />
        </FieldRoot>
      </Grid>
      {tempError && (
        <Text id={tempErrorId} fontSize="sm" color="fg.error" role="alert">
          {tempError}
        </Text>
      )}
      {stale && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Title>{MODEL_TEXT.staleWarning(staleModelId, fallback?.label)}</Alert.Title>
        </Alert.Root>
      )}
    </Stack>
  );
}
