import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseObject, ResponseOutputItem, ResponseRequest, ToolStep } from '@cadre/contract';
import type { AskOutcome } from './ask.ts';
import { beginAsk, eventStream, type CallerMessage, type AgentApiOptions } from './begin-ask.ts';
import { failureError } from './chat-completions.ts';
import { responseGeneration } from './generation.ts';

type InputItem = Exclude<ResponseRequest['input'], string>[number];
type InputMessage = Extract<InputItem, { role: unknown }>;
const isMessage = (item: InputItem): item is InputMessage =>
  item.type !== 'function_call' && item.type !== 'function_call_output';

/** The request's instructions and input as the conversation; echoed tool steps are the thread's own. */
function callerMessages(body: ResponseRequest): CallerMessage[] {
  const messages: CallerMessage[] = [];
  if (body.instructions) messages.push({ role: 'system', text: body.instructions, loc: ['instructions'] });
  if (typeof body.input === 'string')
    return [...messages, { role: 'user', text: body.input, loc: ['input'] }];
  body.input.forEach((item, i) => {
    if (!isMessage(item)) return;
    const text = typeof item.content === 'string' ? item.content : item.content.map((p) => p.text).join('\n');
    messages.push({ role: item.role, text, loc: ['input', i] });
  });
  return messages;
}

type ToolCallItem = Extract<ResponseOutputItem, { type: 'function_call' }>;
type MessageItem = Extract<ResponseOutputItem, { type: 'message' }>;

/** A tool step's result as a `function_call_output` says it: JSON, or the reason it did not run. */
const outputOf = (step: ToolStep) =>
  step.status === 'done'
    ? typeof step.result === 'string'
      ? step.result
      : JSON.stringify(step.result ?? null)
    : `${step.status}: ${step.error ?? 'the tool did not run'}`;

/**
 * The response's output as the run goes: the answer's text as message items, each tool call the
 * agent made as a `function_call` item followed by its `function_call_output` once it ended (Cadre
 * ran it: the caller runs nothing). With `send`, each change is also a Responses streaming event.
 */
function responseOutput(itemId: string, send?: (event: Record<string, unknown>) => void) {
  const output: ResponseOutputItem[] = [];
  const calls = new Map<string, ToolCallItem>();
  let message: MessageItem | undefined;
  const indexOf = (item: ResponseOutputItem) => output.indexOf(item);
  const added = (item: ResponseOutputItem) => {
    output.push(item);
    send?.({ type: 'response.output_item.added', output_index: indexOf(item), item: structuredClone(item) });
  };
  const done = (item: ResponseOutputItem) =>
    send?.({ type: 'response.output_item.done', output_index: indexOf(item), item: structuredClone(item) });
  const closeMessage = () => {
    if (!message) return;
    const at = { item_id: message.id, output_index: indexOf(message), content_index: 0 };
    const part = message.content[0]!;
    send?.({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] });
    send?.({ type: 'response.content_part.done', ...at, part: structuredClone(part) });
    message.status = 'completed';
    done(message);
    message = undefined;
  };
  return {
    output,
    text(delta: string) {
      if (!message) {
        // A new message item after a tool call: the paragraph break before it is the item's edge.
        delta = delta.trimStart();
        if (!delta) return;
        message = {
          type: 'message',
          id: `msg_${output.length}_${itemId}`,
          role: 'assistant',
          status: 'in_progress',
          content: [],
        };
        added(message);
        const part = { type: 'output_text' as const, text: '', annotations: [] };
        message.content.push(part);
        send?.({
          type: 'response.content_part.added',
          item_id: message.id,
          output_index: indexOf(message),
          content_index: 0,
          part: { ...part },
        });
      }
      message.content[0]!.text += delta;
      send?.({
        type: 'response.output_text.delta',
        item_id: message.id,
        output_index: indexOf(message),
        content_index: 0,
        delta,
        logprobs: [],
      });
    },
    step(step: ToolStep) {
      closeMessage();
      const known = calls.get(step.id);
      if (!known) {
        const call: ToolCallItem = {
          type: 'function_call',
          id: `fc_${step.id}`,
          call_id: step.id,
          name: step.name,
          arguments: JSON.stringify(step.arguments ?? {}),
          status: 'in_progress',
          cadre: { tool_step: step },
        };
        calls.set(step.id, call);
        added(call);
        return;
      }
      if (known.status !== 'in_progress') return;
      known.status =
        step.status === 'running'
          ? 'in_progress'
          : step.status === 'awaiting_approval'
            ? 'incomplete'
            : 'completed';
      if (known.status === 'in_progress') return;
      done(known);
      if (known.status !== 'completed') return;
      const result: ResponseOutputItem = {
        type: 'function_call_output',
        id: `fco_${step.id}`,
        call_id: step.id,
        output: outputOf(step),
        status: 'completed',
      };
      added(result);
      done(result);
    },
    /** Ends what is still open: the last message, and calls cut short (the run stopped). */
    close() {
      closeMessage();
      for (const call of calls.values()) {
        if (call.status !== 'in_progress') continue;
        call.status = 'incomplete';
        done(call);
      }
    },
  };
}

/**
 * `POST /responses`: the subset of OpenAI's Responses API an agent needs (docs/api.md,
 * "Responses"). The agent runs as on chat completions; its tool calls are output items.
 */
export async function createResponse(
  options: AgentApiOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  body: ResponseRequest,
) {
  const { ask, model } = await beginAsk(options, request, reply, {
    model: body.model,
    messages: callerMessages(body),
    generation: (provider) => responseGeneration(provider, body),
  });
  const base = {
    id: `resp_${ask.threadId}`,
    object: 'response' as const,
    created_at: Math.floor(Date.now() / 1000),
    model,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    tool_choice: 'auto' as const,
    tools: [],
    text: { format: { type: body.text?.format?.type ?? 'text' } },
    usage: null,
    cadre: { thread_id: ask.threadId },
  };
  const ended = (output: ResponseOutputItem[], outcome: AskOutcome): ResponseObject => {
    const failed = failureError(outcome);
    const { prompt_tokens, completion_tokens, total_tokens } = outcome.usage;
    return {
      ...base,
      status: failed ? 'failed' : outcome.finishReason === 'length' ? 'incomplete' : 'completed',
      output,
      error: failed ? { code: failed.code, message: failed.detail } : null,
      incomplete_details:
        !failed && outcome.finishReason === 'length' ? { reason: 'max_output_tokens' } : null,
      usage: {
        input_tokens: prompt_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: completion_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens,
      },
    };
  };
  const run = async (out: ReturnType<typeof responseOutput>) => {
    const outcome = await ask.answer({ text: out.text, step: out.step });
    // The agent's step limit ends the answer with a sentence saying so, as on chat completions.
    if (outcome.failure?.category === 'limit') out.text(`\n\n${outcome.failure.message}`);
    out.close();
    return { response: ended(out.output, outcome), failed: failureError(outcome) };
  };

  if (!body.stream) {
    const { response, failed } = await run(responseOutput(ask.threadId));
    // The thread keeps whatever was answered before the failure.
    if (failed) throw failed;
    return response;
  }
  const events = eventStream(reply);
  let sequence = 0;
  const send = (event: Record<string, unknown>) =>
    events.send({ ...event, sequence_number: sequence++ }, event.type as string);
  void (async () => {
    const started = { ...base, status: 'in_progress' as const, output: [] };
    send({ type: 'response.created', response: started });
    send({ type: 'response.in_progress', response: started });
    try {
      const { response } = await run(responseOutput(ask.threadId, send));
      const type = {
        completed: 'response.completed',
        incomplete: 'response.incomplete',
        failed: 'response.failed',
      };
      send({ type: type[response.status as keyof typeof type], response });
    } catch (err) {
      request.log.warn({ err }, 'OpenAI-compatible response stream failed');
      send({
        type: 'error',
        code: 'internal_error',
        message: 'The agent failed while answering.',
        param: null,
      });
    }
    events.end();
  })();
  return reply.send(events.body as never);
}
