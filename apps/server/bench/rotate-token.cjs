'use strict';
// autocannon's setupRequest for bench/api.ts. autocannon loads it by path inside its worker thread
// (functions cannot be sent to a worker), so the tokens come from a file: one per line, handed out
// in turn to every request of every connection.
const fs = process.getBuiltinModule('node:fs');

const tokens = fs.readFileSync(process.env.BENCH_TOKENS_FILE, 'utf8').split('\n').filter(Boolean);
let next = 0;

module.exports = (request) => {
  const token = tokens[next];
  next = (next + 1) % tokens.length;
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
};
