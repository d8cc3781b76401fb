import type { SearchKnowledgeOutput } from '@cadre/contract';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema } from 'ai';
import type { KnowledgeBase } from '../ports.ts';

export { SEARCH_KNOWLEDGE_TITLE, SEARCH_KNOWLEDGE_TOOL } from '@cadre/contract';

export const SEARCH_KNOWLEDGE_DESCRIPTION =
  "Searches the files attached to this agent (its knowledge: the owner's documents) and returns the " +
  'passages that best match, numbered, each with its file name and passage number. Use it for any ' +
  'question the documents may answer. Answer from the passages only, and cite each one you use as [n] ' +
  'with its file name.';

/** What the model passes: the question or its key words. */
export const SEARCH_KNOWLEDGE_INPUT: JSONSchema7 = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for: the question, or its key words.' },
  },
  required: ['query'],
  additionalProperties: false,
};

/**
 * The "Search knowledge" tool an agent gets when it has files: a read that runs at once (no
 * approval), over the chatting user's own agent only. Its output names the file and passage of each
 * hit, which the answer cites and the chat frame opens.
 */
export function knowledgeTool(knowledge: KnowledgeBase, userId: number, agentId: number) {
  return {
    description: SEARCH_KNOWLEDGE_DESCRIPTION,
    inputSchema: jsonSchema<Record<string, unknown>>(SEARCH_KNOWLEDGE_INPUT),
    async search(query: string): Promise<SearchKnowledgeOutput> {
      const hits = await knowledge.search(userId, agentId, query.slice(0, 1_000));
      return { query, passages: hits.map((hit, i) => ({ n: i + 1, ...hit })) };
    },
  };
}

/** Whether the agent has files, so the run offers the tool. */
export const hasKnowledge = async (knowledge: KnowledgeBase | undefined, userId: number, agentId: number) =>
  knowledge !== undefined && (await knowledge.hasFiles(userId, agentId));
