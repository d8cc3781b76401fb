import {
  Box,
  Button,
  chakra,
  Field,
  Flex,
  Grid,
  Heading,
  HStack,
  Input,
  Skeleton,
  Stack,
  Tag,
  Text,
  Textarea,
  Tooltip,
  Portal,
  Wrap,
} from '@chakra-ui/react';
import { AgentAvatar } from '@cadre/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useBlocker, useNavigate } from '@tanstack/react-router';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FiAlertTriangle, FiDownload, FiInfo } from 'react-icons/fi';
import { ApiError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { toaster } from '../../../components/ui/toaster';
import { useFocusFirstInvalid } from '../../../lib/focus-invalid';
import {
  agentOptions,
  downloadAgentExport,
  refreshAgents,
  saveAgent,
  type Agent,
  type DraftTool,
} from '../api/agents-api';
import {
  addTool,
  blankFields,
  draftOf,
  draftToBody,
  groupToolsByApp,
  isDirty,
  MAX_STARTER_LENGTH,
  removeTool,
  starterError,
  starterErrorsFrom,
  temperatureError,
  type AgentDraft,
  type DraftField,
} from '../agents-logic';
import { AGENT_TEXT, AGENT_TOASTS, EXCHANGE_TEXT } from '../constants';
import { AgentEmbed } from './agent-embed';
import { AgentFiles } from './agent-files';
import { AgentHistory } from './agent-history';
import { AgentModelFields } from './agent-model-fields';
import { AgentTriggers } from './agent-triggers';
import { AppearancePicker } from './appearance-picker';
import { NeedsReconnecting } from './needs-reconnecting';
import { ToolPermissions } from './tool-permissions';
import { WriteSettingsFields } from './write-settings-fields';
import { usePageQuery } from '../../../lib/page-query';

/** What the tool picker beside the form gets: which tools the agent has, and how to add or remove one. */
export interface ToolPickerProps {
  selectedIds: ReadonlySet<number>;
  onAddTool: (tool: DraftTool) => void;
  onRemoveTool: (toolId: number) => void;
}

/** Renders the tool picker beside the form; the route supplies it, so features stay apart. */
export type ToolPicker = (props: ToolPickerProps) => ReactNode;

/** The agent form: create mode without an id, update mode with one (spec section 4). */
export function AgentFormPage({ agentId, toolPicker }: { agentId?: number; toolPicker: ToolPicker }) {
  if (agentId === undefined) return <AgentForm toolPicker={toolPicker} />;
  return <EditAgent agentId={agentId} toolPicker={toolPicker} />;
}

function EditAgent({ agentId, toolPicker }: { agentId: number; toolPicker: ToolPicker }) {
  const agent = usePageQuery(agentOptions(agentId));
  // A restore replaces what the form holds: a new key starts it again from the restored agent.
  const [restores, setRestores] = useState(0);
  if (agent.isPending) {
    return (
      <Stack gap="6" role="status" aria-busy="true" aria-label="Loading agent">
        <Skeleton height="10" width="64" />
        <Grid templateColumns={{ base: '1fr', lg: '2fr 1fr' }} gap="8">
          <Stack gap="5">
            <Skeleton height="16" />
            <Skeleton height="24" />
            <Skeleton height="32" />
          </Stack>
          <Skeleton height="48" />
        </Grid>
      </Stack>
    );
  }
  if (agent.isError) {
    const missing = agent.error instanceof ApiError && agent.error.code === 'not_found';
    return (
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          {missing ? 'Agent not found' : 'Edit agent'}
        </Heading>
        <LoadError
          status={missing ? 'warning' : 'error'}
          title={missing ? 'This agent does not exist.' : 'Error loading the agent.'}
          description={
            missing
              ? 'It may have been deleted, or the link is wrong.'
              : 'The agent could not be loaded. Try again in a moment.'
          }
          onRetry={missing ? undefined : () => void agent.refetch()}
          retrying={agent.isFetching}
        >
          <Button variant="outline" asChild>
            <Link to="/agents">Back to agents</Link>
          </Button>
        </LoadError>
      </Stack>
    );
  }
  return (
    <Stack gap="10">
      <AgentForm key={`${agent.data.id}-${restores}`} agent={agent.data} toolPicker={toolPicker} />
      <ToolPermissions agentId={agentId} />
      <AgentFiles agentId={agentId} />
      <AgentEmbed agent={agent.data} />
      <AgentTriggers agentId={agentId} />
      <AgentHistory agentId={agentId} onRestored={() => setRestores((n) => n + 1)} />
    </Stack>
  );
}

function AgentForm({ agent, toolPicker }: { agent?: Agent; toolPicker: ToolPicker }) {
  const mode = agent ? 'Update' : 'Create';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [initial] = useState(() => draftOf(agent));
  const [draft, setDraft] = useState<AgentDraft>(initial);
  // Shown once a Save found them blank; each clears as its field is typed in.
  const [invalid, setInvalid] = useState<ReadonlySet<DraftField>>(new Set());
  // Every way a Save is refused moves focus to the first field it marked.
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid<HTMLFormElement>();
  // Set on a successful save so that leaving for /agents is not treated as losing changes.
  const saved = useRef(false);
  const dirty = isDirty(initial, draft);
  // The server's word on the starters, cleared as soon as the person edits them.
  const [serverStarterErrors, setServerStarterErrors] = useState<Record<string, string>>({});

  const blocker = useBlocker({
    shouldBlockFn: () => !saved.current && dirty,
    enableBeforeUnload: () => !saved.current && dirty,
    withResolver: true,
  });

  const save = useMutation({
    mutationFn: (body: NonNullable<ReturnType<typeof draftToBody>>) => saveAgent(body, agent?.id),
    onSuccess: async () => {
      saved.current = true;
      toaster.create(AGENT_TOASTS.saved(mode));
      await refreshAgents(queryClient, agent?.id);
      await navigate({ to: '/agents' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        setServerStarterErrors(starterErrorsFrom(error.body, draft.starters));
        focusFirstInvalid();
      }
      toaster.create(AGENT_TOASTS.saveFailed(mode));
    },
  });

  const exportAgent = useMutation({
    mutationFn: downloadAgentExport,
    onError: () => toaster.create(AGENT_TOASTS.exportFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = draftToBody(draft);
    if (!body) {
      const blank = blankFields(draft);
      setInvalid(new Set(blank));
      focusFirstInvalid();
      toaster.create(AGENT_TOASTS.required);
      return;
    }
    // A starter that is too long, or a temperature out of range, shows its error under its input
    // as it is typed; nothing is sent.
    if (draft.starters.some((s) => starterError(s)) || temperatureError(draft.temperature)) {
      focusFirstInvalid();
      return;
    }
    save.mutate(body);
  };

  const onAddTool = (tool: DraftTool) => {
    setDraft((current) => {
      const tools = addTool(current.tools, tool);
      return tools === current.tools ? current : { ...current, tools };
    });
    if (!draft.tools.some((t) => t.id === tool.id)) {
      toaster.create(AGENT_TOASTS.actionAdded(tool.display_name));
    }
  };

  const onRemoveTool = (toolId: number) =>
    setDraft((current) => ({ ...current, tools: removeTool(current.tools, toolId) }));

  const set = (field: 'name' | 'description' | 'guidelines') => (event: { target: { value: string } }) => {
    const { value } = event.target;
    setDraft((current) => ({ ...current, [field]: value }));
    if (value.trim() && invalid.has(field as DraftField))
      setInvalid((current) => new Set([...current].filter((f) => f !== field)));
  };
  const selectedIds = new Set(draft.tools.map((tool) => tool.id));

  const setStarter = (index: number) => (event: { target: { value: string } }) => {
    setServerStarterErrors({});
    setDraft((current) => ({
      ...current,
      starters: current.starters.map((s, i) => (i === index ? event.target.value : s)),
    }));
  };

  return (
    <Stack gap="6">
      <HStack gap="3">
        <AgentAvatar
          agent={{ name: draft.name || agent?.name || '?', icon: draft.icon, color: draft.color }}
          size="lg"
        />
        <Heading as="h1" size="2xl">
          {agent ? `Edit ${agent.name}` : 'Create Agent'}
        </Heading>
      </HStack>
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="8" alignItems="start">
        <Stack asChild gap="5">
          <form ref={formRef} onSubmit={submit} noValidate aria-label={`${mode} agent`}>
            <RequiredField label="Name" invalid={invalid.has('name')} error={AGENT_TEXT.nameRequired}>
              <Input value={draft.name} onChange={set('name')} maxLength={200} autoComplete="off" />
            </RequiredField>
            <RequiredField
              label="Description"
              invalid={invalid.has('description')}
              error={AGENT_TEXT.descriptionRequired}
            >
              <Textarea value={draft.description} onChange={set('description')} rows={3} autoresize />
            </RequiredField>
            <AppearancePicker
              name={draft.name}
              icon={draft.icon}
              color={draft.color}
              onChange={(look) => setDraft((current) => ({ ...current, ...look }))}
            />
            <Field.Root>
              <Field.Label>
                Guidelines
                <Text as="span" color="fg.muted" fontWeight="normal">
                  (optional)
                </Text>
                <Tooltip.Root openDelay={200}>
                  <Tooltip.Trigger asChild>
                    <chakra.button
                      type="button"
                      aria-label={AGENT_TEXT.guidelinesTooltip}
                      color="fg.muted"
                      display="inline-flex"
                      rounded="full"
                      focusRing="outside"
                    >
                      <FiInfo aria-hidden="true" />
                    </chakra.button>
                  </Tooltip.Trigger>
                  <Portal>
                    <Tooltip.Positioner>
                      <Tooltip.Content maxW="xs">{AGENT_TEXT.guidelinesTooltip}</Tooltip.Content>
                    </Tooltip.Positioner>
                  </Portal>
                </Tooltip.Root>
              </Field.Label>
              <Textarea value={draft.guidelines} onChange={set('guidelines')} rows={5} autoresize />
            </Field.Root>
            <AgentModelFields
              modelId={draft.modelId}
              temperature={draft.temperature}
              staleModelId={draft.saved.modelAvailable ? undefined : draft.saved.modelId}
              onChange={(change) => setDraft((current) => ({ ...current, ...change }))}
            />
            <Stack as="fieldset" gap="2">
              <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
                {AGENT_TEXT.starters}{' '}
                <Text as="span" color="fg.muted" fontWeight="normal">
                  (optional)
                </Text>
              </Text>
              <Text fontSize="sm" color="fg.muted">
                {AGENT_TEXT.startersHelp}
              </Text>
              {serverStarterErrors.all && (
                <Text fontSize="sm" color="fg.error" role="alert">
                  {serverStarterErrors.all}
                </Text>
              )}
              {draft.starters.map((starter, index) => {
                const error = starterError(starter) ?? serverStarterErrors[String(index)];
                return (
                  <Field.Root key={index} invalid={error !== undefined}>
                    <Field.Label srOnly>{AGENT_TEXT.starterLabel(index + 1)}</Field.Label>
                    <Input
                      value={starter}
                      onChange={setStarter(index)}
                      placeholder={AGENT_TEXT.starterPlaceholder(index + 1)}
                      autoComplete="off"
                    />
                    {error ? (
                      <Field.ErrorText>{error}</Field.ErrorText>
                    ) : (
                      starter.length > MAX_STARTER_LENGTH - 20 && (
                        <Field.HelperText>
                          {starter.trim().length}/{MAX_STARTER_LENGTH}
                        </Field.HelperText>
                      )
                    )}
                  </Field.Root>
                );
              })}
            </Stack>
            <Stack as="fieldset" gap="2">
              <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
                Tools
              </Text>
              {draft.tools.length === 0 ? (
                <Text fontSize="sm" color="fg.muted">
                  No tools yet. Pick a service under Active Services to add its tools.
                </Text>
              ) : (
                <Stack gap="3" data-testid="selected-tools">
                  {groupToolsByApp(draft.tools).map((group) => {
                    const stale = group.tools.some((tool) => tool.needs_reconnecting);
                    return (
                      <Box key={group.app}>
                        <HStack gap="2" mb="1" wrap="wrap">
                          <Text fontSize="sm" fontWeight="semibold">
                            {group.app}
                          </Text>
                          {stale && <NeedsReconnecting service={group.app} />}
                        </HStack>
                        <Wrap gap="2">
                          {group.tools.map((tool) => (
                            <Tag.Root
                              key={tool.id}
                              size="lg"
                              variant="surface"
                              colorPalette={tool.needs_reconnecting ? 'orange' : 'brand'}
                              data-needs-reconnecting={tool.needs_reconnecting || undefined}
                            >
                              {tool.needs_reconnecting && (
                                <Tag.StartElement>
                                  <FiAlertTriangle aria-hidden="true" />
                                </Tag.StartElement>
                              )}
                              <Tag.Label>{tool.display_name}</Tag.Label>
                              <Tag.EndElement>
                                <Tag.CloseTrigger
                                  aria-label={`Remove ${tool.display_name}`}
                                  onClick={() => onRemoveTool(tool.id)}
                                />
                              </Tag.EndElement>
                            </Tag.Root>
                          ))}
                        </Wrap>
                      </Box>
                    );
                  })}
                </Stack>
              )}
            </Stack>
            {/* Triggers, API and MCP callers reach an agent that exists: the settings are the
                editor's, beside its Triggers and Embed sections; a new agent starts with the
                defaults (triggers refuse writes, API callers ask for approval). */}
            {agent && (
              <WriteSettingsFields
                unattended={draft.allowUnattendedWrites}
                apiWrites={draft.apiWrites}
                onChange={({ unattended, apiWrites }) =>
                  setDraft((current) => ({
                    ...current,
                    allowUnattendedWrites: unattended ?? current.allowUnattendedWrites,
                    apiWrites: apiWrites ?? current.apiWrites,
                  }))
                }
              />
            )}
            <HStack gap="3" pt="2">
              <Button type="submit" colorPalette="brand" loading={save.isPending}>
                {AGENT_TEXT.save}
              </Button>
              <Button variant="outline" asChild>
                <Link to="/agents">{AGENT_TEXT.cancel}</Link>
              </Button>
              {agent && (
                <Button
                  variant="ghost"
                  ms="auto"
                  loading={exportAgent.isPending}
                  onClick={() => exportAgent.mutate(agent)}
                  aria-label={EXCHANGE_TEXT.exportLabel(agent.name)}
                >
                  <FiDownload aria-hidden="true" /> {EXCHANGE_TEXT.export}
                </Button>
              )}
            </HStack>
          </form>
        </Stack>
        <Flex direction="column">{toolPicker({ selectedIds, onAddTool, onRemoveTool })}</Flex>
      </Grid>
      <ConfirmDialog
        open={blocker.status === 'blocked'}
        title="Discard changes?"
        message="This agent has unsaved changes. Leave the page and lose them?"
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </Stack>
  );
}

/** A field the form cannot be saved without: its label marked required, its error below it. */
function RequiredField(props: { label: string; invalid: boolean; error: string; children: ReactNode }) {
  return (
    <Field.Root required invalid={props.invalid}>
      <Field.Label>
        {props.label} <Field.RequiredIndicator />
      </Field.Label>
      {props.children}
      <Field.ErrorText>{props.error}</Field.ErrorText>
    </Field.Root>
  );
}
