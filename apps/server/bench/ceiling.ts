/**
 * `npm run bench`'s ceiling for the list call: a bare Fastify server (Cadre's version, logger off)
 * answering every GET with a fixed JSON body, the list response Cadre sent, read from the file
 * named on the command line, or with an empty 304 when the request has an If-None-Match (the
 * ceiling of a revalidation). No authentication, database or logging: what the framework and the
 * socket cost for a body of that size. Prints `{"address"}` as one JSON line.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const body = fs.readFileSync(process.argv[2]!, 'utf8');
const app = Fastify({ logger: false });
app.get('/', (request, reply) => {
  if (request.headers['if-none-match'] !== undefined) void reply.code(304).send();
  else void reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ address })}\n`);
