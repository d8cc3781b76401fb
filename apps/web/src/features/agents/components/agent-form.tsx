import { Flex, Grid, Heading, HStack, Input, Stack, Textarea } from '@chakra-ui/react';
import { AgentAvatar } from '@cadre/ui';
import { useEffect, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormErrorsAlert } from '../../../components/form-errors-alert';
import { FormField } from '../../../components/form-field';
import type { Agent, DraftTool } from '../api/agents-api';
import { AGENT_RULES } from '../agents-logic';
import { useAgentDraft } from '../use-agent-draft';
import { useAgentSave } from '../use-agent-save';
import { AgentFormActions } from './agent-form-actions';
import { AgentModelFields } from './agent-model-fields';
import { AppearancePicker } from './appearance-picker';
import { GuidelinesField } from './guidelines-field';
import { SelectedTools } from './selected-tools';
import { StarterFields } from './starter-fields';
import { WriteSettingsFields } from './write-settings-fields';

/** What the tool picker beside the form gets: which tools the agent has, and how to add or remove one. */
export interface ToolPickerProps {
  selectedIds: ReadonlySet<number>;
  onAddTool: (tool: DraftTool) => void;
  onRemoveTool: (toolId: number) => void;
}

/** Renders the tool picker beside the form; the route supplies it, so features stay apart. */
export type ToolPicker = (props: ToolPickerProps) => ReactNode;

/** The icon and colour as chosen, not yet saved. */
export type AgentLookDraft = Pick<Agent, 'icon' | 'color'>;

/**
 * The agent's settings as a form (a new agent without `agent`), the tool picker beside it. An
 * agent that exists has its heading above the editor's sections, told the look as it is chosen
 * (`onLookChange`) to preview it there.
 */
export function AgentForm({
  agent,
  toolPicker,
  onLookChange,
}: {
  agent?: Agent;
  toolPicker: ToolPicker;
  onLookChange?: (look: AgentLookDraft) => void;
}) {
  const form = useAgentDraft(agent);
  const { draft, setText, update, onAddTool, onRemoveTool } = form;
  useEffect(
    () => onLookChange?.({ icon: draft.icon, color: draft.color }),
    [draft.icon, draft.color, onLookChange],
  );
  // Every way a Save is refused marks the fields and moves focus to the first one marked.
  const { ref: formRef, errors } = form.fieldErrors;
  const { mode, submit, saving, blocker } = useAgentSave(agent, form);
  const selectedIds = new Set(draft.tools.map((tool) => tool.id));

  return (
    <Stack gap="6">
      {!agent && (
        <HStack gap="3">
          <AgentAvatar agent={{ name: draft.name || '?', icon: draft.icon, color: draft.color }} size="lg" />
          <Heading as="h1" size="2xl">
            Create Agent
          </Heading>
        </HStack>
      )}
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="8" alignItems="start">
        <Stack asChild gap="5">
          <form ref={formRef} onSubmit={submit} noValidate aria-label={`${mode} agent`}>
            <FormField label="Name" rules={AGENT_RULES.name} error={errors.fields.name}>
              <Input {...AGENT_RULES.name} value={draft.name} onChange={setText('name')} autoComplete="off" />
            </FormField>
            <FormField label="Description" rules={AGENT_RULES.description} error={errors.fields.description}>
              <Textarea
                {...AGENT_RULES.description}
                value={draft.description}
                onChange={setText('description')}
                rows={3}
                autoresize
              />
            </FormField>
            <AppearancePicker name={draft.name} icon={draft.icon} color={draft.color} onChange={update} />
            <GuidelinesField
              value={draft.guidelines}
              onChange={setText('guidelines')}
              error={errors.fields.guidelines}
            />
            <AgentModelFields
              modelId={draft.modelId}
              temperature={draft.temperature}
              serverErrors={{ modelId: errors.fields.model_id, temperature: errors.fields.temperature }}
              staleModelId={draft.saved.modelAvailable ? undefined : draft.saved.modelId}
              onChange={update}
            />
            <StarterFields
              starters={draft.starters}
              serverErrors={form.serverStarterErrors}
              onChange={form.setStarter}
            />
            <SelectedTools tools={draft.tools} onRemove={onRemoveTool} />
            {/* Triggers, API and MCP callers reach an agent that exists: the settings are the
                editor's, beside its Triggers and Embed sections; a new agent starts with the
                defaults (triggers refuse writes, API callers ask for approval). */}
            {agent && (
              <WriteSettingsFields
                unattended={draft.allowUnattendedWrites}
                apiWrites={draft.apiWrites}
                onChange={({ unattended, apiWrites }) =>
                  update((current) => ({
                    allowUnattendedWrites: unattended ?? current.allowUnattendedWrites,
                    apiWrites: apiWrites ?? current.apiWrites,
                  }))
                }
              />
            )}
            <FormErrorsAlert lines={errors.other} />
            <AgentFormActions agent={agent} saving={saving} />
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
