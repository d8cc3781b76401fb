import type {
  JSONSchema7,
  JSONValue,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import Fuse from 'fuse.js';

/**
 * The built-in offline model: the default when no LLM provider is configured, so chat works with no
 * key and no network. It is a real AI SDK `LanguageModelV3`, so the runtime treats it like any other
 * model (same tool loop, same approval path). It is deterministic and honest about what it is:
 *
 * - last message from the user: pick the offered tool that best matches the message (fuse.js over
 *   tool names and descriptions, threshold 0.3, as in the web app), fill its arguments from the
 *   message where the input schema allows, and call it; if required arguments are missing, ask for
 *   them; if nothing matches, list the tools and how to ask for them;
 * - last message a tool result: report it as readable markdown and stop;
 * - no tools: explain that this is the offline model.
 *
 * Text is streamed a word at a time. The chat frame shows the label from `OFFLINE_LABEL` whenever the
 * selected model `isOffline`.
 */
export const OFFLINE_LABEL = 'Offline model — configure an LLM provider for full answers';
export const OFFLINE_MODEL_ID = 'cadre-offline-1';

type Reply =
  { text: string } | { toolCall: { toolName: string; input: Record<string, unknown> }; text?: string };

const STOP_WORDS = new Set(
  'a an and the to of for in on at by with from into please can could would you me my i is are be it this that what how do does some using use run call tell show give get want need'.split(
    ' ',
  ),
);

const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

export function createOfflineModel(): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'cadre.offline',
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      const reply = decide(options);
      const content: LanguageModelV3Content[] = [];
      if (reply.text) content.push({ type: 'text', text: reply.text });
      if ('toolCall' in reply) content.push(toolCallContent(reply.toolCall));
      return {
        content,
        finishReason: { unified: 'toolCall' in reply ? 'tool-calls' : 'stop', raw: undefined },
        usage: usage(promptSize(options.prompt), tokens(reply.text ?? '').length),
        warnings: [],
      };
    },
    async doStream(options: LanguageModelV3CallOptions) {
      const reply = decide(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
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
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
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

const promptSize = (prompt: LanguageModelV3Prompt) => JSON.stringify(prompt).length >> 2;

function functionTools(options: LanguageModelV3CallOptions): LanguageModelV3FunctionTool[] {
  return (options.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === 'function');
}

function decide(options: LanguageModelV3CallOptions): Reply {
  const tools = functionTools(options);
  const last = options.prompt.at(-1);
  if (last?.role === 'tool') return { text: reportResults(last.content, options.prompt) };
  if (last?.role !== 'user') return { text: 'I am the offline model and have nothing more to add.' };
  const message = last.content
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join(' ')
    .trim();
  if (tools.length === 0) {
    return {
      text:
        `${OFFLINE_LABEL}.\n\nI am Cadre's built-in offline model: I can only run the tools attached to ` +
        'this agent, and this agent has none. Attach tools to the agent, or ask your administrator to ' +
        'configure an LLM provider for full answers.',
    };
  }
  const tool = bestTool(message, tools);
  if (!tool) {
    const list = tools.map((t) => `- **${t.name}**${t.description ? `: ${t.description}` : ''}`).join('\n');
    return {
      text:
        `${OFFLINE_LABEL}.\n\nI could not match your message to one of this agent's tools. ` +
        `This agent has:\n\n${list}\n\nName the tool and give its inputs, for example ` +
        `\`${tools[0]!.name} ${exampleArgs(tools[0]!.inputSchema)}\`.`,
    };
  }
  const { input, missing } = fillArguments(message, tool.inputSchema);
  if (missing.length > 0) {
    return {
      text:
        `${OFFLINE_LABEL}.\n\nTo run **${tool.name}** I need: ${missing.map((m) => `\`${m}\``).join(', ')}. ` +
        `Give them as \`name: value\`, for example \`${tool.name} ${exampleArgs(tool.inputSchema)}\`.`,
    };
  }
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

type Schema = JSONSchema7;

const typeOf = (schema: Schema): string | undefined => {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  if (t) return t;
  if (schema.enum) return typeof schema.enum[0] === 'number' ? 'number' : 'string';
  return undefined;
};

const normaliseKey = (key: string) => key.toLowerCase().replace(/[\s_-]+/g, '');

function isoDate(offsetDays: number, now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offsetDays));
  return d.toISOString().slice(0, 10);
}

function isDateField(name: string, schema: Schema) {
  return schema.format === 'date' || schema.format === 'date-time' || /date|day|when|due/i.test(name);
}

/**
 * Fills a tool's arguments from a chat message where the schema allows: `key: value` pairs,
 * numbers, quoted strings, ISO dates and "today"/"tomorrow", enum words, and — when exactly one
 * free-text string field is left — the rest of the message.
 */
export function fillArguments(
  message: string,
  inputSchema: Schema,
  now = new Date(),
): { input: Record<string, unknown>; missing: string[] } {
  const properties = Object.entries(
    (inputSchema.properties ?? {}) as Record<string, Schema | boolean>,
  ).filter((e): e is [string, Schema] => typeof e[1] === 'object');
  const required = new Set(inputSchema.required ?? []);
  const input: Record<string, unknown> = {};
  let rest = message;
  const consume = (text: string) => {
    rest = rest.replace(text, ' ');
  };
  const coerce = (schema: Schema, raw: string): unknown => {
    const value = raw.trim().replace(/^["'“”]|["'“”]$/g, '');
    const type = typeOf(schema);
    if (type === 'number' || type === 'integer') {
      const n = Number(value);
      return Number.isFinite(n) ? (type === 'integer' ? Math.trunc(n) : n) : undefined;
    }
    if (type === 'boolean')
      return /^(true|yes|on|1)$/i.test(value) ? true : /^(false|no|off|0)$/i.test(value) ? false : undefined;
    if (schema.enum)
      return schema.enum.find((e) => String(e).toLowerCase() === value.toLowerCase()) as unknown;
    if (type === 'string' && isDateField('', schema)) return parseDate(value, now) ?? value;
    return value;
  };

  // 1. key: value pairs ("to: bob@example.com", "amount = 3"), values up to the next pair.
  const byKey = new Map(properties.map(([name, schema]) => [normaliseKey(name), [name, schema] as const]));
  const pairPattern =
    /([A-Za-z][\w -]{0,40}?)\s*[:=]\s*("[^"]*"|'[^']*'|[^,;\n]*?)(?=\s*(?:[,;\n]|$|\s[A-Za-z][\w-]{0,40}\s*[:=]))/g;
  for (const match of message.matchAll(pairPattern)) {
    const found =
      byKey.get(normaliseKey(match[1]!.trim().split(/\s+/).at(-1)!)) ?? byKey.get(normaliseKey(match[1]!));
    if (!found || input[found[0]] !== undefined) continue;
    const value = coerce(found[1], match[2]!);
    if (value !== undefined && value !== '') {
      input[found[0]] = value;
      consume(match[0]);
    }
  }
  const unfilled = () => properties.filter(([name]) => input[name] === undefined);

  // 2. Dates: ISO dates, today, tomorrow.
  for (const [name, schema] of unfilled()) {
    if (typeOf(schema) !== 'string' || !isDateField(name, schema)) continue;
    const match = rest.match(
      /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\btoday\b|\btomorrow\b/i,
    );
    if (!match) continue;
    const value = parseDate(match[0], now)!;
    input[name] = schema.format === 'date-time' && value.length === 10 ? `${value}T09:00:00Z` : value;
    consume(match[0]);
  }

  // 3. Enum words.
  for (const [name, schema] of unfilled()) {
    if (!schema.enum) continue;
    const hit = schema.enum.find((e) => new RegExp(`\\b${escapeRegExp(String(e))}\\b`, 'i').test(rest));
    if (hit !== undefined) {
      input[name] = hit;
      consume(String(hit));
    }
  }

  // 4. Numbers, in order.
  const numberFields = unfilled().filter(([, s]) => ['number', 'integer'].includes(typeOf(s) ?? ''));
  for (const [name, schema] of numberFields) {
    const match = rest.match(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/);
    if (!match) break;
    input[name] = typeOf(schema) === 'integer' ? Math.trunc(Number(match[0])) : Number(match[0]);
    rest = rest.replace(match[0], ' ');
  }

  // 5. Quoted strings, in order.
  const stringFields = () => unfilled().filter(([, s]) => typeOf(s) === 'string' && !s.enum);
  for (const [name] of stringFields()) {
    const match = rest.match(/"([^"]+)"|“([^”]+)”|'([^']+)'/);
    if (!match) break;
    input[name] = match[1] ?? match[2] ?? match[3];
    consume(match[0]);
  }

  // 6. One free-text field left: it gets the rest of the message.
  const left = stringFields();
  const requiredLeft = left.filter(([name]) => required.has(name));
  const allStrings = properties.filter(([, s]) => typeOf(s) === 'string' && !s.enum);
  // An optional field only takes the rest when it is the schema's one string field.
  const target =
    requiredLeft.length === 1
      ? requiredLeft[0]
      : left.length === 1 && allStrings.length === 1
        ? left[0]
        : undefined;
  if (target) {
    const text = rest.replace(/\s+/g, ' ').trim();
    if (text) input[target[0]] = text;
  }

  const missing = [...required].filter((name) => input[name] === undefined);
  return { input, missing };
}

function parseDate(value: string, now: Date): string | undefined {
  if (/^today$/i.test(value)) return isoDate(0, now);
  if (/^tomorrow$/i.test(value)) return isoDate(1, now);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  return undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function exampleArgs(schema: Schema): string {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>).slice(0, 3);
  return props
    .map(([name, s]) => {
      const type = typeOf(s);
      const sample =
        type === 'number' || type === 'integer'
          ? '2'
          : isDateField(name, s)
            ? 'tomorrow'
            : s.enum
              ? String(s.enum[0])
              : '"…"';
      return `${name}: ${sample}`;
    })
    .join(', ');
}

/** Markdown for the results of the tools the last step called. */
function reportResults(results: Array<{ type: string }>, prompt: LanguageModelV3Prompt): string {
  const lines: string[] = [`${OFFLINE_LABEL}.`, ''];
  for (const part of results) {
    if (part.type !== 'tool-result') continue;
    const result = part as unknown as { toolName: string; output: LanguageModelV3ToolResultOutput };
    const name = `**${result.toolName}**`;
    const output = result.output;
    switch (output.type) {
      case 'execution-denied':
        lines.push(`${name} was not run: you denied it${output.reason ? ` (${output.reason})` : ''}.`);
        break;
      case 'error-text':
        lines.push(`${name} failed: ${output.value}`);
        break;
      case 'error-json':
        lines.push(`${name} failed:`, '', formatValue(output.value));
        break;
      case 'text':
        lines.push(`${name} returned:`, '', output.value);
        break;
      case 'json':
        lines.push(`${name} returned:`, '', formatValue(output.value));
        break;
      default:
        lines.push(`${name} returned a result I cannot show.`);
    }
    lines.push('');
  }
  if (lines.length === 2) lines.push(`Nothing to report (${prompt.length} messages so far).`);
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
