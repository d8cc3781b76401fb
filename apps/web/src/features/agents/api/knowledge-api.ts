/**
 * The agent's knowledge files as the editor's Files section uses them (generated options and keys,
 * never retyped). Uploads are multipart: the generated client sends `body.file` as form data.
 */
import {
  deleteKnowledgeFileMutation,
  listKnowledgeFilesOptions,
  listKnowledgeFilesQueryKey,
  listAgentVersionsQueryKey,
  uploadKnowledgeFileMutation,
} from '../../../client/@tanstack/react-query.gen';
import type { ListKnowledgeFilesResponse } from '../../../client/types.gen';

export type KnowledgeFile = ListKnowledgeFilesResponse[number];

export const knowledgeFilesOptions = (agentId: number) =>
  listKnowledgeFilesOptions({ path: { agent_id: agentId } });

/** What a file change makes stale: the list, and the history (each change is a version). */
export const knowledgeChangeKeys = (agentId: number) => [
  listKnowledgeFilesQueryKey({ path: { agent_id: agentId } }),
  listAgentVersionsQueryKey({ path: { agent_id: agentId } }),
];

export { deleteKnowledgeFileMutation, uploadKnowledgeFileMutation };
