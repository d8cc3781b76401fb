import type {
  JSONValue,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { decideTurn } from './intents.ts';
import { resolveReference } from './references.ts';
import { answerFor } from './answers.ts';
import { FAILURES } from './answer-phrases.ts';
import { failureAnswer } from './failures.ts';
import { knowledgeAnswer } from './knowledge.ts';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from './names.ts';
import { PHRASES } from './phrases.ts';
import { limitOutput, tokens } from './output-limits.ts';
import { readClock, type UserClock } from '../../user-clock.ts';

/**
 * The built-in offline model itself (index.ts's `createOfflineModel` loads it on its first call):
 * the default when no LLM provider is configured, so chat works with no key and no network. It is a real AI SDK `LanguageModelV4`, so the runtime treats it like any other
 * model (same tool loop, same approval path). It is deterministic and honest about what it is:
 *
 * - last message from the user: decide what they meant (intents.ts): small talk, arithmetic,
 *   a tool call with arguments taken from the sentence, one question for a missing argument, or
 *   what the agent can do instead;
 * - last message a tool result: report it as readable markdown and stop;
 * - no tools: explain that this is the offline model.
 *
 * It reads the person's time zone and clock from the system prompt (src/user-clock.ts). Text is
 * streamed a word at a time; what it says is in phrases.ts. The chat frame shows
 * `OFFLINE_LABEL` whenever the selected model `isOffline`.
 */

type Reply =
  | { text: string; cut?: 'length' | 'stop' }
  | { toolCall: { toolName: string; input: Record<string, unknown> }; text?: string };

const usage = (input: number, output: number): LanguageModelV4Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

export function createModel(): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
      const reply = decide(options);
      const content: LanguageModelV4Content[] = [];
      if (reply.text) content.push({ type: 'text', text: reply.text });
      if ('toolCall' in reply) content.push(toolCallContent(reply.toolCall));
      return {
        content,
        finishReason: finishOf(reply),
        usage: usage(promptSize(options.prompt), tokens(reply.text ?? '').length),
        warnings: [],
      };
    },
    async doStream(options: LanguageModelV4CallOptions) {
      const reply = decide(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      parts.push({
        type: 'response-metadata',
        id: `offline-${promptSize(options.prompt)}`,
        modelId: OFFLINE_MODEL_ID,
      });
      if (reply.text) {
        parts.push({ type: 'text-start', id: 't0' });
        for (const delta of tokens(reply.text)) parts.push({ type: 'text-delta', id: 't0', delta });
        parts.push({ type: 'text-end', id: 't0' });
      }
      if ('toolCall' in reply) parts.push(toolCallContent(reply.toolCall));
      parts.push({
        type: 'finish',
        finishReason: finishOf(reply),
        usage: usage(promptSize(options.prompt), tokens(reply.text ?? '').length),
      });
      const signal = options.abortSignal;
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          // Yield between parts so a stop or disconnect is seen mid-answer, as with a real model.
          await new Promise((resolve) => setImmediate(resolve));
          const part = parts[index++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

const finishOf = (reply: Reply) => ({
  unified:
    'cut' in reply && reply.cut
      ? reply.cut
      : 'toolCall' in reply
        ? ('tool-calls' as const)
        : ('stop' as const),
  raw: undefined,
});

function toolCallContent(call: { toolName: string; input: Record<string, unknown> }) {
  return {
    type: 'tool-call' as const,
    toolCallId: `offline-${crypto.randomUUID()}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  };
}

const promptSize = (prompt: LanguageModelV4Prompt) => JSON.stringify(prompt).length >> 2;

function functionTools(options: LanguageModelV4CallOptions): LanguageModelV4FunctionTool[] {
  return (options.tools ?? []).filter((t): t is LanguageModelV4FunctionTool => t.type === 'function');
}

const textOf = (message: LanguageModelV4Prompt[number] | undefined) =>
  message && message.role !== 'system' && Array.isArray(message.content)
    ? message.content
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join(' ')
        .trim()
    : '';

const systemOf = (prompt: LanguageModelV4Prompt) =>
  prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');

/**
 * After a search for the record a request named by its topic ("delete the bread note"): the change
 * itself, offered for approval, when the search found one (intents.ts `resolveReference`).
 */
function afterResults(prompt: LanguageModelV4Prompt, tools: LanguageModelV4FunctionTool[], clock: UserClock) {
  const userAt = prompt.findLastIndex((m) => m.role === 'user');
  // Only the first step after the person's message: a search run for a reference.
  if (prompt.slice(userAt + 1).filter((m) => m.role === 'tool').length !== 1) return undefined;
  const results = prompt.at(-1)!.content as Array<{ type: string }>;
  const found = results.find((p): p is LanguageModelV4ToolResultPart => p.type === 'tool-result');
  if (!found || found.output.type !== 'json') return undefined;
  return resolveReference(textOf(prompt[userAt]), tools, clock, found.toolName, found.output.value);
}

/** The model's reply within the caller's output token limit and stop sequences (output-limits.ts). */
function decide(options: LanguageModelV4CallOptions): Reply {
  const reply = decideFully(options);
  const limited = limitOutput(reply.text ?? '', options);
  return limited.cut ? limited : reply;
}

function decideFully(options: LanguageModelV4CallOptions): Reply {
  const tools = functionTools(options);
  const prompt = options.prompt;
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    const clock = readClock(systemOf(prompt));
    return (
      afterResults(prompt, tools, clock) ?? { text: reportResults(last.content, prompt, clock.timeZone) }
    );
  }
  if (last?.role !== 'user') return { text: PHRASES.nothingMore };
  if (tools.length === 0) return { text: PHRASES.noTools };
  const system = systemOf(prompt);
  const previousAnswer = prompt.at(-2)?.role === 'assistant' ? textOf(prompt.at(-2)) : undefined;
  const previousUser = previousAnswer ? textOf(prompt.at(-3)) : undefined;
  return decideTurn(
    {
      message: textOf(last),
      previousAnswer,
      previousUser,
      agentName: /^You are "([^"]+)"/.exec(system)?.[1] ?? 'this agent',
      clock: readClock(system),
    },
    tools,
  );
}

/** Markdown for the results of the tools the last step called, as a person would say them. */
function reportResults(
  results: Array<{ type: string }>,
  prompt: LanguageModelV4Prompt,
  timeZone: string,
): string {
  const calls = toolCalls(prompt);
  const lines: string[] = [];
  for (const part of results) {
    if (part.type !== 'tool-result') continue;
    const result = part as unknown as LanguageModelV4ToolResultPart;
    const output = result.output;
    const input = calls.get(result.toolCallId) ?? {};
    switch (output.type) {
      case 'execution-denied':
        lines.push(FAILURES.denied(output.reason));
        break;
      case 'error-text':
        lines.push(failureAnswer(output.value));
        break;
      case 'error-json':
        lines.push(failureAnswer(typeof output.value === 'string' ? output.value : ''));
        break;
      case 'text':
        lines.push(output.value.trim() || FAILURES.unknown);
        break;
      case 'json':
        lines.push(
          knowledgeAnswer(output.value) ??
            answerFor(result.toolName, output.value, { input, timeZone, titleOf: titleIn(prompt) }),
        );
        break;
      default:
        lines.push(FAILURES.unshowable);
    }
    lines.push('');
  }
  if (lines.length === 0) lines.push(PHRASES.nothingToReport(prompt.length));
  return lines.join('\n').trimEnd();
}

/** The arguments of every tool call in the conversation, by call id. */
function toolCalls(prompt: LanguageModelV4Prompt): Map<string, Record<string, JSONValue>> {
  const calls = new Map<string, Record<string, JSONValue>>();
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const input = typeof part.input === 'string' ? safeParse(part.input) : part.input;
      if (input && typeof input === 'object') calls.set(part.toolCallId, input as Record<string, JSONValue>);
    }
  }
  return calls;
}

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The title of a record (note, event) by id, from what earlier results in the conversation showed. */
const titleIn = (prompt: LanguageModelV4Prompt) => (id: unknown) => {
  const found = new Map<unknown, string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.id !== undefined && typeof record.title === 'string') found.set(record.id, record.title);
      Object.values(record).forEach(visit);
    }
  };
  for (const message of prompt)
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.output.type === 'json') visit(part.output.value);
  return found.get(id);
};
