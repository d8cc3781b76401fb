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
import Fuse from 'fuse.js';
import { exampleArgs, fillArguments } from './offline-arguments.ts';
import { PHRASES, STOP_WORDS } from './offline-phrases.ts';

/**
 * The built-in offline model: the default when no LLM provider is configured, so chat works with no
 * key and no network. It is a real AI SDK `LanguageModelV4`, so the runtime treats it like any other
 * model (same tool loop, same approval path). It is deterministic and honest about what it is:
 *
 * - last message from the user: pick the offered tool that best matches the message (fuse.js over
 *   tool names and descriptions, threshold 0.3, as in the web app), fill its arguments from the
 *   message where the input schema allows, and call it; if required arguments are missing, ask for
 *   them; if nothing matches, list the tools and how to ask for them;
 * - last message a tool result: report it as readable markdown and stop;
 * - no tools: explain that this is the offline model.
 *
 * Text is streamed a word at a time; what it says is in offline-phrases.ts. The chat frame shows
 * `OFFLINE_LABEL` whenever the selected model `isOffline`.
 */
export const OFFLINE_MODEL_ID = 'cadre-offline-1';

type Reply =
  { text: string } | { toolCall: { toolName: string; input: Record<string, unknown> }; text?: string };

const usage = (input: number, output: number): LanguageModelV4Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

export function createOfflineModel(): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'cadre.offline',
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

function decide(options: LanguageModelV4CallOptions): Reply {
  const tools = functionTools(options);
  const last = options.prompt.at(-1);
  if (last?.role === 'tool') return { text: reportResults(last.content, options.prompt) };
  if (last?.role !== 'user') return { text: PHRASES.nothingMore };
  const message = last.content
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join(' ')
    .trim();
  if (tools.length === 0) return { text: PHRASES.noTools };
  const example = (tool: LanguageModelV4FunctionTool) => `${tool.name} ${exampleArgs(tool.inputSchema)}`;
  const tool = bestTool(message, tools);
  if (!tool) {
    const list = tools.map((t) => PHRASES.toolListItem(t.name, t.description ?? '')).join('\n');
    return { text: PHRASES.noMatch(list, example(tools[0]!)) };
  }
  const { input, missing } = fillArguments(message, tool.inputSchema);
  if (missing.length > 0) return { text: PHRASES.missingInputs(tool.name, missing, example(tool)) };
  return { toolCall: { toolName: tool.name, input } };
}

/** The tool whose name or description best matches the message's words (fuse.js, threshold 0.3). */
export function bestTool<T extends { name: string; description?: string }>(
  message: string,
  tools: T[],
): T | undefined {
  const entries = tools.map((tool, index) => ({
    index,
    name: tool.name.replace(/[_.-]+/g, ' '),
    description: tool.description ?? '',
  }));
  const fuse = new Fuse(entries, {
    keys: [
      { name: 'name', weight: 2 },
      { name: 'description', weight: 1 },
    ],
    threshold: 0.3,
    ignoreLocation: true,
    includeScore: true,
    minMatchCharLength: 3,
  });
  const score = new Map<number, number>();
  const words = message
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !/^\d+$/.test(w));
  const whole = message.toLowerCase();
  for (const entry of entries) {
    // Naming the tool outright wins.
    if (whole.includes(tools[entry.index]!.name.toLowerCase()) || whole.includes(entry.name.toLowerCase())) {
      score.set(entry.index, (score.get(entry.index) ?? 0) + 10);
    }
  }
  for (const word of new Set(words)) {
    for (const hit of fuse.search(word)) {
      score.set(hit.item.index, (score.get(hit.item.index) ?? 0) + (1 - (hit.score ?? 1)));
    }
  }
  let best: number | undefined;
  for (const [index, value] of score) {
    if (best === undefined || value > score.get(best)! || (value === score.get(best) && index < best))
      best = index;
  }
  return best === undefined ? undefined : tools[best];
}

/** Markdown for the results of the tools the last step called. */
function reportResults(results: Array<{ type: string }>, prompt: LanguageModelV4Prompt): string {
  const lines: string[] = [PHRASES.resultsHeader, ''];
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
      case 'json':
        lines.push(PHRASES.returned(name), '', formatValue(output.value));
        break;
      default:
        lines.push(PHRASES.unshowable(name));
    }
    lines.push('');
  }
  if (lines.length === 2) lines.push(PHRASES.nothingToReport(prompt.length));
  return lines.join('\n').trimEnd();
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
