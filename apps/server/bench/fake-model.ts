/**
 * `npm run bench`'s model: the tests' fake OpenAI-compatible server (test/support/fake-openai.ts),
 * streaming 50 tokens with no delay, in a process of its own so its CPU is not counted as Cadre's
 * or the load generator's. Prints `{"url"}` as one JSON line.
 */
import { startFakeOpenAi } from '../test/support/fake-openai.ts';

const model = await startFakeOpenAi({ tokens: Number(process.argv[2] ?? 50), record: false });
process.stdout.write(`${JSON.stringify({ url: model.url })}\n`);
