import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { isSpendLimit, LlmError, toLlmError } from './errors.ts';

/**
 * The ONE retry layer for language model calls. The AI SDK's own retries are switched off
 * (`maxRetries: 0` on every `streamText` call) and this wrapper does all of it, so a turn never
 * multiplies attempts across layers (R6, nanobot#2511):
 *
 * - at most `maxAttempts` (3) attempts per model call;
 * - 429 is retried after `retry-after-ms` / `retry-after` (seconds or an HTTP date) when the
 *   provider sends one, otherwise after a jittered exponential backoff; a `retry-after` longer
 *   than `maxRetryAfterMs` is not waited for (the error is reported instead);
 * - 5xx (including Anthropic's 529 "overloaded") and connection failures are retried with jittered
 *   backoff;
 * - a spend-limit 429 (`enforced_spend_limit_reached`, `insufficient_quota`) is never retried;
 * - a retry is only possible before the first stream part reaches the caller;
 * - the first-byte timeout covers the request until the first part of the answer arrives; the idle
 *   timeout covers every later gap between parts. Both abort the HTTP request and surface as
 *   `LlmError('timeout')`; timeouts are not retried (so a stalled provider costs one timeout,
 *   not three).
 */
export interface ResilienceOptions {
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  /** Waits between attempts; injectable so tests can record delays instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onRetry?: (info: { attempt: number; delayMs: number; statusCode?: number }) => void;
  /** Called once per failed model call (after its retries), never for a call the caller aborted. */
  onFailure?: (info: { error: LlmError; durationMs: number; attempts: number }) => void;
}

export const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The delay a provider asked for, in milliseconds, if any. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryable(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  if (status === undefined) return error.isRetryable;
  if (status === 429) return !isSpendLimit(error);
  return status === 408 || status >= 500;
}

export function withResilience(model: LanguageModelV4, options: ResilienceOptions): LanguageModelV4 {
  const maxAttempts = options.maxAttempts ?? 3;
  const baseDelay = options.baseDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 8_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 30_000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;

  /** Runs `attempt` up to maxAttempts times; returns its value or throws an LlmError. */
  async function withRetries<T>(
    signal: AbortSignal | undefined,
    attempt: (n: number, failedMidStream: (error: unknown) => LlmError) => Promise<T>,
  ): Promise<T> {
    const startedAt = Date.now();
    const failed = (error: unknown, attempts: number) => {
      const llmError = toLlmError(error);
      options.onFailure?.({ error: llmError, durationMs: Date.now() - startedAt, attempts });
      return llmError;
    };
    for (let n = 1; ; n++) {
      try {
        return await attempt(n, (error) => failed(error, n));
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof LlmError || n >= maxAttempts || !isRetryable(error)) throw failed(error, n);
        const apiError = error as APICallError;
        const asked = retryAfterMs(apiError.responseHeaders);
        if (asked !== undefined && asked > maxRetryAfter) throw failed(error, n);
        const backoff = Math.min(maxDelay, baseDelay * 2 ** (n - 1));
        const jittered = backoff / 2 + random() * (backoff / 2);
        const delayMs = asked !== undefined ? asked + random() * Math.min(250, baseDelay) : jittered;
        options.onRetry?.({ attempt: n, delayMs, statusCode: apiError.statusCode });
        await sleep(delayMs, signal);
      }
    }
  }

  /** One attempt guarded by the first-byte timeout: resolves once the first part has arrived. */
  async function streamAttempt(
    callOptions: LanguageModelV4CallOptions,
    failedMidStream: (error: unknown) => LlmError,
  ): Promise<LanguageModelV4StreamResult> {
    const controller = new AbortController();
    const outer = callOptions.abortSignal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined = setTimeout(() => {
      timedOut = true;
      controller.abort(new LlmError('timeout'));
    }, options.firstByteTimeoutMs);
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      outer?.removeEventListener('abort', onOuterAbort);
    };
    const fail = (error: unknown): never => {
      cleanup();
      if (timedOut) throw new LlmError('timeout', { cause: error });
      throw error;
    };

    let result: LanguageModelV4StreamResult;
    try {
      result = await model.doStream({ ...callOptions, abortSignal: controller.signal });
    } catch (error) {
      return fail(error);
    }
    const reader = result.stream.getReader();
    const buffered: LanguageModelV4StreamPart[] = [];
    let ended = false;
    try {
      for (;;) {
        const next = await raceAbort(reader.read(), controller.signal);
        if (next.done) {
          ended = true;
          break;
        }
        buffered.push(next.value);
        if (next.value.type !== 'stream-start') break;
      }
    } catch (error) {
      void reader.cancel().catch(() => {});
      return fail(error);
    }
    if (timer) clearTimeout(timer);
    timer = undefined;

    // One idle timer and one abort listener for the whole answer, not one of each per part: the
    // timer is pushed back (`refresh`) as each read starts and ignored while no read waits (the
    // caller is slow, not the model); the listener fails the read that waits.
    const idleMs = options.idleTimeoutMs;
    let idle = false;
    let waiting = false;
    let idleTimer: NodeJS.Timeout | undefined;
    let failRead: ((reason: unknown) => void) | undefined;
    controller.signal.addEventListener('abort', () => failRead?.(controller.signal.reason), { once: true });
    const read = () =>
      new Promise<Awaited<ReturnType<typeof reader.read>>>((resolve, reject) => {
        if (controller.signal.aborted) return reject(controller.signal.reason);
        failRead = reject;
        reader.read().then(resolve, reject);
      });
    const stopIdleTimer = () => clearTimeout(idleTimer);
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(out) {
        for (const part of buffered) out.enqueue(part);
        if (ended) {
          cleanup();
          out.close();
        }
      },
      async pull(out) {
        if (ended) return;
        waiting = true;
        if (idleTimer) idleTimer.refresh();
        else
          idleTimer = setTimeout(() => {
            if (!waiting) return;
            idle = true;
            controller.abort(new LlmError('timeout'));
          }, idleMs);
        try {
          const next = await read();
          if (next.done) {
            ended = true;
            stopIdleTimer();
            cleanup();
            out.close();
          } else {
            out.enqueue(next.value);
          }
        } catch (error) {
          ended = true;
          stopIdleTimer();
          cleanup();
          void reader.cancel().catch(() => {});
          if (outer?.aborted) {
            out.error(outer.reason ?? error);
          } else {
            // Reported in-band, as providers report stream errors, so the answer so far is kept.
            out.enqueue({
              type: 'error',
              error: failedMidStream(idle ? new LlmError('timeout', { cause: error }) : error),
            });
            out.close();
          }
        } finally {
          waiting = false;
        }
      },
      cancel(reason) {
        ended = true;
        stopIdleTimer();
        cleanup();
        controller.abort(reason);
        return reader.cancel(reason).catch(() => {});
      },
    });
    return { ...result, stream };
  }

  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (callOptions) =>
      withRetries(callOptions.abortSignal, async () => {
        const controller = new AbortController();
        const outer = callOptions.abortSignal;
        const onOuterAbort = () => controller.abort(outer?.reason);
        outer?.addEventListener('abort', onOuterAbort, { once: true });
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new LlmError('timeout'));
        }, options.firstByteTimeoutMs + options.idleTimeoutMs);
        try {
          return await raceAbort(
            model.doGenerate({ ...callOptions, abortSignal: controller.signal }),
            controller.signal,
          );
        } catch (error) {
          if (timedOut) throw new LlmError('timeout', { cause: error });
          throw error;
        } finally {
          clearTimeout(timer);
          outer?.removeEventListener('abort', onOuterAbort);
        }
      }),
    doStream: (callOptions) =>
      withRetries(callOptions.abortSignal, (_n, failedMidStream) =>
        streamAttempt(callOptions, failedMidStream),
      ),
  };
}

/** Rejects as soon as `signal` aborts, even if `promise` ignores the signal. */
function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
