import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import type { SpanAttributes, SpanHandle, Telemetry } from '../../../kernel.ts';
import { toLlmError } from './errors.ts';

/** The offered model as its span and metrics name it. */
export interface ObservedModelInfo {
  /** The offered id (LLM_MODELS): the metrics' label. */
  id: string;
  provider: string;
}

/**
 * Each call of a model as one span in OpenTelemetry's GenAI conventions (`chat {model}`: the
 * requested and responding model, input and output tokens, finish reasons, the error category)
 * and as metrics (calls, duration to the end of the answer, tokens). The prompt and the answer go
 * on the span only when the operator opted in (`gen_ai.input.messages`, `gen_ai.output.messages`).
 * It wraps the retrying model, so a span is one call however many attempts it took. Called on the
 * model's first call: the AI SDK is not loaded at start.
 */
export async function observedModel(
  model: LanguageModelV4,
  info: ObservedModelInfo,
  telemetry: Telemetry,
): Promise<LanguageModelV4> {
  const { wrapLanguageModel } = await import('ai');
  const begin = (options: LanguageModelV4CallOptions) => {
    const attributes: SpanAttributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': info.provider,
      'gen_ai.request.model': model.modelId,
      'gen_ai.request.temperature': options.temperature,
      'gen_ai.request.max_tokens': options.maxOutputTokens,
      'cadre.model.id': info.id,
    };
    if (telemetry.captureMessageContent) attributes['gen_ai.input.messages'] = JSON.stringify(options.prompt);
    const span = telemetry.startSpan(`chat ${model.modelId}`, attributes, { kind: 'client' });
    return { span, started: performance.now() };
  };
  const failed = (call: { span: SpanHandle; started: number }, error: unknown) => {
    call.span.fail(toLlmError(error).category);
    call.span.end();
    telemetry.metrics.modelCall(info.id, 'error', (performance.now() - call.started) / 1000);
  };
  const succeeded = (
    call: { span: SpanHandle; started: number },
    usage: LanguageModelV4Usage | undefined,
    finish: LanguageModelV4FinishReason | undefined,
    text: string,
  ) => {
    const input = usage?.inputTokens.total;
    const output = usage?.outputTokens.total;
    call.span.setAttributes({
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
      'gen_ai.response.finish_reasons': finish ? [finish.unified] : undefined,
      ...(telemetry.captureMessageContent && {
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: text }] },
        ]),
      }),
    });
    call.span.end();
    const tokens = input !== undefined && output !== undefined ? { input, output } : undefined;
    telemetry.metrics.modelCall(info.id, 'ok', (performance.now() - call.started) / 1000, tokens);
  };

  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params }) {
      const call = begin(params);
      try {
        const result = await doGenerate();
        const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        call.span.setAttributes({ 'gen_ai.response.id': result.response?.id });
        succeeded(call, result.usage, result.finishReason, text);
        return result;
      } catch (error) {
        failed(call, error);
        throw error;
      }
    },
    async wrapStream({ doStream, params }) {
      const call = begin(params);
      let result: Awaited<ReturnType<LanguageModelV4['doStream']>>;
      try {
        result = await doStream();
      } catch (error) {
        failed(call, error);
        throw error;
      }
      let usage: LanguageModelV4Usage | undefined;
      let finish: LanguageModelV4FinishReason | undefined;
      let error: unknown;
      let text = '';
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        if (error !== undefined) failed(call, error);
        else succeeded(call, usage, finish, text);
      };
      const observe = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          if (part.type === 'response-metadata') {
            call.span.setAttributes({ 'gen_ai.response.id': part.id, 'gen_ai.response.model': part.modelId });
          } else if (part.type === 'text-delta' && telemetry.captureMessageContent) text += part.delta;
          else if (part.type === 'finish') {
            usage = part.usage;
            finish = part.finishReason;
          } else if (part.type === 'error') error = part.error;
          controller.enqueue(part);
        },
        flush: end,
        // The answer failed or was stopped mid-way: the reason is the error.
        cancel: (reason: unknown) => {
          error ??= reason ?? new Error('The answer was stopped');
          end();
        },
      });
      return { ...result, stream: result.stream.pipeThrough(observe) };
    },
  };
  return wrapLanguageModel({ model, middleware });
}
