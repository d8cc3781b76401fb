#!/usr/bin/env bash
# Builds a production copy of Cadre in OUT from the sources in SRC: what the Dockerfile runs, and
# what apps/server/test/cluster/release.cluster.test.ts runs outside a container.
#   deploy/build-release.sh SRC OUT
# Steps: copy the sources (no node_modules, builds or data), install exactly the lockfile, build
# the web app, the chat frame and the server, then keep only the server's production dependencies
# (the web app and the chat frame are static files by then). OUT then runs with
# `node apps/server/dist/main.js` and needs nothing else.
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2

mkdir -p "$out"
out=$(cd "$out" && pwd)
# node_modules and dist anywhere; the data folder, git and test output only at the top.
tar -C "$src" \
  --exclude=node_modules --exclude=dist --exclude=./data --exclude=./.git \
  --exclude=./e2e/playwright-report --exclude=./e2e/test-results --exclude=./screenshots \
  -cf - . | tar -C "$out" -xf -

cd "$out"
npm ci --no-audit --no-fund
npm run build
rm -rf node_modules apps/*/node_modules packages/*/node_modules
npm ci --omit=dev --workspace=apps/server --no-audit --no-fund
# What only development needs: tests, benchmarks, the end-to-end suite and the sources the build
# already bundled (the server's dist carries the contract; Vite's output carries the apps).
rm -rf e2e apps/server/test apps/server/bench apps/web/src apps/chat/src
