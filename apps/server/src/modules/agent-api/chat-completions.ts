import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatCompletionRequest } from '@cadre/contract';
import type { AskOutcome } from './ask.ts';
import { beginAsk, eventStream, type AgentApiOptions } from './begin-ask.ts';
import { completionGeneration } from './generation.ts';
import { OpenAiFailure, openAiErrorBody } from './openai-errors.ts';

/**
 * A failure that ends the answer without one (the model could not be reached or refused, the run
 * was stopped, a write was refused): its category is the error code, which gives the status.
 */
export function failureError(outcome: AskOutcome): OpenAiFailure | undefined {
  if (!outcome.failure || outcome.failure.category === 'limit') return undefined;
  return new OpenAiFailure(outcome.failure.category, outcome.failure.message);
}

/** OpenAI's `logprobs` of a choice: the tokens of every model call's text, when they were asked for. */
const logprobsOf = (outcome: AskOutcome) =>
  outcome.logprobs ? { content: outcome.logprobs, refusal: null } : null;

/**
 * `POST /chat/completions`: runs the agent as the chat does and answers OpenAI's
 * `chat.completion`, or streams `chat.completion.chunk`s; both carry the agent's tool steps in
 * Cadre's `cadre` extension (docs/api.md, "Tool steps").
 */
export async function chatCompletion(
  options: AgentApiOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatCompletionRequest,
) {
  const { ask, model } = await beginAsk(options, request, reply, {
    model: body.model,
    messages: body.messages.map((m, i) => ({
      role: m.role,
      text: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text).join('\n'),
      loc: ['messages', i],
    })),
    generation: (provider) => completionGeneration(provider, body),
  });
  const id = `chatcmpl-${ask.threadId}`;
  const created = Math.floor(Date.now() / 1000);

  if (!body.stream) {
    let content = '';
    const outcome = await ask.answer({ text: (text) => (content += text) });
    // The thread keeps whatever was answered before the failure.
    const failed = failureError(outcome);
    if (failed) throw failed;
    if (outcome.failure?.category === 'limit')
      content += `${content ? '\n\n' : ''}${outcome.failure.message}`;
    return {
      id,
      object: 'chat.completion' as const,
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant' as const, content, refusal: null },
          finish_reason: outcome.finishReason,
          logprobs: logprobsOf(outcome),
        },
      ],
      usage: outcome.usage,
      cadre: { thread_id: ask.threadId, tool_steps: outcome.steps },
    };
  }

  const events = eventStream(reply);
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    extra = {},
    logprobs: ReturnType<typeof logprobsOf> = null,
  ) =>
    events.send({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs }],
      ...extra,
    });
  void (async () => {
    chunk({ role: 'assistant', content: '' });
    try {
      const outcome = await ask.answer({
        text: (text) => chunk({ content: text }),
        // Each step as it begins and as it ends, on a chunk of its own with an empty delta.
        step: (step) => chunk({}, null, { cadre: { tool_step: step } }),
      });
      const failed = failureError(outcome);
      if (failed) {
        events.send({ error: openAiErrorBody(failed.code, failed.detail) });
      } else {
        if (outcome.failure) chunk({ content: `\n\n${outcome.failure.message}` });
        // The log probabilities come with the model's last call: on the last chunk, for all the text.
        chunk({}, outcome.finishReason, {}, logprobsOf(outcome));
        if (body.stream_options?.include_usage) {
          events.send({
            id,
            object: 'chat.completion.chunk',
            created,
            model,
            choices: [],
            usage: outcome.usage,
          });
        }
      }
    } catch (err) {
      request.log.warn({ err }, 'OpenAI-compatible stream failed');
      events.send({ error: openAiErrorBody('internal_error', 'The agent failed while answering.') });
    }
    events.end('data: [DONE]\n\n');
  })();
  return reply.send(events.body as never);
}
