import type {
  JSONValue,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { decideTurn } from './intents.ts';
import { knowledgeAnswer } from './knowledge.ts';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from './names.ts';
import { PHRASES } from './phrases.ts';
import { readClock } from '../../user-clock.ts';

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
  { text: string } | { toolCall: { toolName: string; input: Record<string, unknown> }; text?: string };

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
        finishReason: { unified: 'toolCall' in reply ? 'tool-calls' : 'stop', raw: undefined },
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
        finishReason: { unified: 'toolCall' in reply ? 'tool-calls' : 'stop', raw: undefined },
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

function toolCallContent(call: { toolName: string; input: Record<string, unknown> }) {
  return {
    type: 'tool-call' as const,
    toolCallId: `offline-${crypto.randomUUID()}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  };
}

/** Splits text into word-sized deltas (whitespace stays with the word before it). */
export function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
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

function decide(options: LanguageModelV4CallOptions): Reply {
  const tools = functionTools(options);
  const prompt = options.prompt;
  const last = prompt.at(-1);
  if (last?.role === 'tool') return { text: reportResults(last.content, prompt) };
  if (last?.role !== 'user') return { text: PHRASES.nothingMore };
  if (tools.length === 0) return { text: PHRASES.noTools };
  const system = prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
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

/** Markdown for the results of the tools the last step called. */
function reportResults(results: Array<{ type: string }>, prompt: LanguageModelV4Prompt): string {
  const lines: string[] = [];
  for (const part of results) {
    if (part.type !== 'tool-result') continue;
    const result = part as unknown as { toolName: string; output: LanguageModelV4ToolResultOutput };
    const name = `**${result.toolName}**`;
    const output = result.output;
    switch (output.type) {
      case 'execution-denied':
        lines.push(PHRASES.denied(name, output.reason));
        break;
      case 'error-text':
        lines.push(PHRASES.failed(name, output.value));
        break;
      case 'error-json':
        lines.push(PHRASES.failedWith(name), '', formatValue(output.value));
        break;
      case 'text':
        lines.push(PHRASES.returned(name), '', output.value);
        break;
      case 'json': {
        const answer = arithmeticAnswer(output.value) ?? knowledgeAnswer(output.value);
        lines.push(...(answer ? [answer] : [PHRASES.returned(name), '', formatValue(output.value)]));
        break;
      }
      default:
        lines.push(PHRASES.unshowable(name));
    }
    lines.push('');
  }
  if (lines.length === 0) lines.push(PHRASES.nothingToReport(prompt.length));
  return lines.join('\n').trimEnd();
}

/** The calculator's `{expression, result}` as one line: "(3 + 4) * 2 = **14**". */
function arithmeticAnswer(value: JSONValue): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { expression, result } = value as Record<string, JSONValue>;
  return typeof expression === 'string' && typeof result === 'number'
    ? `${expression} = **${result}**`
    : undefined;
}

function formatValue(value: JSONValue): string {
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object'))
      return value.map((v) => `- ${String(v)}`).join('\n');
    return '```json\n' + JSON.stringify(value, null, 2) + '\n```';
  }
  return Object.entries(value)
    .map(([key, v]) =>
      v !== null && typeof v === 'object'
        ? `- **${key}**: \`${JSON.stringify(v)}\``
        : `- **${key}**: ${String(v)}`,
    )
    .join('\n');
}
