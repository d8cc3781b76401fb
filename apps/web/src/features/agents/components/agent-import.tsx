import { AGENT_IMPORT_LIMIT_BYTES, idempotencyHeaders } from '@cadre/contract';
import { Button, List, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type ChangeEvent } from 'react';
import { FiUpload } from 'react-icons/fi';
import { ApiError } from '../../../api/api-error';
import { DialogShell } from '../../../components/form-dialog';
import { toaster } from '../../../components/ui/toaster';
import {
  importAgentArchive,
  importAgentMutation,
  refreshAgents,
  type AgentImportDocument,
  type AgentImportResult,
} from '../api/agents-api';
import { AGENT_TOASTS, EXCHANGE_TEXT } from '../constants';

/** Why the server refused a document, in words: its first validation error names the field. */
function refusal(error: unknown): string {
  if (error instanceof ApiError && error.code === 'payload_too_large') return 'The file is too large.';
  if (error instanceof ApiError && error.code === 'validation_failed') {
    const detail = (error.body as { detail?: { loc?: string[]; msg?: string }[] } | undefined)?.detail;
    const first = Array.isArray(detail) ? detail[0] : undefined;
    if (first?.msg) return `${(first.loc ?? []).filter((p) => p !== 'body').join('.')} ${first.msg}`.trim();
  }
  return 'The agent could not be imported.';
}

interface ImportedTool {
  display_name?: string;
  tool_name: string;
  service_name?: string;
  service_key: string;
  provider?: string;
}

/** One kind of tool the import could not attach, with what the user should know; none: nothing. */
function ToolList(props: { label: string; intro: string; tools: ImportedTool[] | undefined }) {
  if (!props.tools?.length) return null;
  return (
    <Stack gap="1">
      <Text>{props.intro}</Text>
      <List.Root ps="5" aria-label={props.label}>
        {props.tools.map((tool) => (
          <List.Item key={`${tool.provider ?? ''}/${tool.service_key}/${tool.tool_name}`}>
            {`${tool.display_name ?? tool.tool_name} (${tool.service_name ?? tool.service_key})`}
          </List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}

/**
 * Import from an exported file (the JSON document, or the zip with the agent's knowledge files): a
 * file picker, then what the import could not finish by itself — the model this server does not
 * offer, the services to connect and the tools it does not offer.
 */
export function AgentImport() {
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [result, setResult] = useState<AgentImportResult | null>(null);
  const handlers = {
    onSuccess: async (answer: AgentImportResult) => {
      setResult(answer);
      await refreshAgents(queryClient);
    },
    onError: (error: unknown) => toaster.create(AGENT_TOASTS.importFailed(refusal(error))),
  };
  const importAgent = useMutation({ ...importAgentMutation(), ...handlers });
  // The zip export goes as it is: the server reads it within its own limits (KNOWLEDGE_MAX_ARCHIVE_BYTES).
  const importArchive = useMutation({ mutationFn: importAgentArchive, ...handlers });
  const pending = importAgent.isPending || importArchive.isPending;

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    if (/\.zip$/i.test(file.name) || file.type === 'application/zip') {
      importArchive.mutate(file);
      return;
    }
    if (file.size > AGENT_IMPORT_LIMIT_BYTES) {
      toaster.create(AGENT_TOASTS.importFailed('The file is too large.'));
      return;
    }
    let body: AgentImportDocument;
    try {
      body = JSON.parse(await file.text()) as AgentImportDocument;
    } catch {
      toaster.create(AGENT_TOASTS.importFailed(EXCHANGE_TEXT.notJson));
      return;
    }
    importAgent.mutate({ body, headers: idempotencyHeaders() });
  };

  const needsNothing =
    result && !result.tools_to_connect.length && !result.tools_not_found.length && !result.model_not_offered;
  return (
    <>
      <Button variant="outline" loading={pending} onClick={() => input.current?.click()}>
        <FiUpload aria-hidden="true" /> {EXCHANGE_TEXT.import}
      </Button>
      <VisuallyHidden asChild>
        <input
          ref={input}
          type="file"
          accept="application/json,.json,application/zip,.zip"
          aria-label={EXCHANGE_TEXT.chooseFile}
          tabIndex={-1}
          onChange={(event) => void pick(event)}
        />
      </VisuallyHidden>
      <DialogShell
        open={result !== null}
        onClose={() => setResult(null)}
        title={EXCHANGE_TEXT.resultTitle(result?.agent.name ?? '')}
        footer={
          result && (
            <>
              {result.tools_to_connect.length > 0 && (
                <Button variant="outline" asChild>
                  <Link to="/services">{EXCHANGE_TEXT.goToServices}</Link>
                </Button>
              )}
              <Button colorPalette="brand" asChild>
                <Link to="/agents/$Id/edit" params={{ Id: String(result.agent.id) }}>
                  {EXCHANGE_TEXT.openAgent}
                </Link>
              </Button>
            </>
          )
        }
      >
        <Stack gap="4">
          {needsNothing && <Text>{EXCHANGE_TEXT.allSet}</Text>}
          {result && result.files.length > 0 && <Text>{EXCHANGE_TEXT.filesCame(result.files.length)}</Text>}
          {result?.model_not_offered && (
            <Text data-testid="model-not-offered">
              {EXCHANGE_TEXT.modelNotOffered(result.model_not_offered)}
            </Text>
          )}
          <ToolList
            label="Tools to connect"
            intro={EXCHANGE_TEXT.toConnect}
            tools={result?.tools_to_connect}
          />
          <ToolList label="Tools not found" intro={EXCHANGE_TEXT.notFound} tools={result?.tools_not_found} />
        </Stack>
      </DialogShell>
    </>
  );
}
