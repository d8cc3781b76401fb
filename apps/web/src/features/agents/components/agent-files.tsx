import { Badge, Button, HStack, Input, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { idempotencyHeaders, KNOWLEDGE_FILE_ACCEPT } from '@cadre/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FiTrash2, FiUpload } from 'react-icons/fi';
import { ApiError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryList } from '../../../components/query-list';
import { Section } from '../../../components/section';
import { toaster } from '../../../components/ui/toaster';
import {
  deleteKnowledgeFileMutation,
  knowledgeChangeKeys,
  knowledgeFilesOptions,
  uploadKnowledgeFileMutation,
  type KnowledgeFile,
} from '../api/knowledge-api';
import { FILES_TEXT } from '../constants';

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The server's words for a refused file (413, 415, 422 name what is wrong), else a generic line. */
function whyRefused(error: unknown): string {
  const detail =
    error instanceof ApiError ? (error.body as { detail?: unknown } | undefined)?.detail : undefined;
  return typeof detail === 'string' ? detail : 'The file could not be added.';
}

/**
 * The editor's Knowledge files section (an existing agent only): add files (each uploaded at once,
 * apart from the form's Save; the files of one pick make one version), see what each became (kind, size, pages, passages) and delete one.
 */
export function AgentFiles({ agentId }: { agentId: number }) {
  const files = useQuery(knowledgeFilesOptions(agentId));
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [removing, setRemoving] = useState<KnowledgeFile | null>(null);
  const refresh = () =>
    Promise.all(knowledgeChangeKeys(agentId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const upload = useMutation(uploadKnowledgeFileMutation());
  const remove = useMutation({
    ...deleteKnowledgeFileMutation(),
    onSuccess: async () => {
      toaster.create(FILES_TEXT.deleted(removing?.name ?? ''));
      setRemoving(null);
      await refresh();
    },
    onError: () => toaster.create(FILES_TEXT.deleteFailed),
  });

  /**
   * Each chosen file in turn; one refused file does not stop the others. The files of one pick
   * share a batch id, so the server records them as one version of the agent, not one each.
   */
  async function add(chosen: File[]) {
    const batch = chosen.length > 1 ? crypto.randomUUID() : undefined;
    for (const file of chosen) {
      setAdding(file.name);
      try {
        const request = { path: { agent_id: agentId }, query: batch && { batch }, body: { file } };
        await upload.mutateAsync({ ...request, headers: idempotencyHeaders() });
        toaster.create(FILES_TEXT.added(file.name));
      } catch (error) {
        toaster.create(FILES_TEXT.addFailed(file.name, whyRefused(error)));
      }
    }
    setAdding(null);
    await refresh();
  }

  return (
    <Section title={FILES_TEXT.heading} hint={FILES_TEXT.help}>
      <HStack gap="3" wrap="wrap">
        <VisuallyHidden>
          <Input
            ref={input}
            type="file"
            multiple
            accept={KNOWLEDGE_FILE_ACCEPT}
            aria-label={FILES_TEXT.inputLabel}
            data-testid="knowledge-file-input"
            onChange={(event) => {
              const chosen = [...(event.currentTarget.files ?? [])];
              event.currentTarget.value = '';
              if (chosen.length) void add(chosen);
            }}
          />
        </VisuallyHidden>
        <Button variant="outline" size="sm" loading={adding !== null} onClick={() => input.current?.click()}>
          <FiUpload aria-hidden="true" />
          {FILES_TEXT.add}
        </Button>
        {adding && (
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {FILES_TEXT.uploading(adding)}
          </Text>
        )}
      </HStack>
      <QueryList
        query={files}
        items={files.data}
        text={{ loading: FILES_TEXT.loading, error: FILES_TEXT.loadError, empty: FILES_TEXT.none }}
        skeletonHeight="16"
      >
        {(list) => (
          <Table.Root size="sm" data-testid="knowledge-files">
            <Table.Body>
              {list.map((file) => (
                <Table.Row key={file.id}>
                  <Table.Cell>
                    <Stack gap="0">
                      <Text fontWeight="medium" wordBreak="break-all">
                        {file.name}
                      </Text>
                      <Text fontSize="xs" color="fg.muted">
                        {[
                          size(file.size_bytes),
                          file.pages === null ? null : FILES_TEXT.pages(file.pages),
                          FILES_TEXT.passages(file.passage_count),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Stack>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge size="sm">{file.media_type.split('/').pop()?.replace(/^.*\./, '')}</Badge>
                  </Table.Cell>
                  <Table.Cell textAlign="end">
                    <Button
                      size="xs"
                      variant="ghost"
                      aria-label={FILES_TEXT.remove(file.name)}
                      onClick={() => setRemoving(file)}
                    >
                      <FiTrash2 aria-hidden="true" />
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </QueryList>
      <ConfirmDialog
        open={removing !== null}
        title={FILES_TEXT.confirmTitle}
        message={FILES_TEXT.confirmMessage(removing?.name ?? '')}
        confirmLabel={FILES_TEXT.confirm}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ path: { agent_id: agentId, file_id: removing.id } })}
      />
    </Section>
  );
}
