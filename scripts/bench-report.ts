// Shared by the benchmark scripts (apps/server/bench/run.ts, apps/server/bench/scale-out.ts,
// e2e/bench-web.ts): each owns one "## " section of docs/benchmarks.md and rewrites only that one.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BENCHMARKS_FILE = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/** The value at the p-th percentile (nearest rank). */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * Puts `section` (which starts with `heading` and carries its own trailing blank lines) in place of
 * the section under `heading`, up to the next "## ", or at the end when there is none yet.
 */
export function writeBenchSection(heading: string, section: string) {
  let text = fs.existsSync(BENCHMARKS_FILE)
    ? fs.readFileSync(BENCHMARKS_FILE, 'utf8')
    : '# Benchmarks\n\nFigures written by the benchmark scripts; never timed assertions in tests.\n\n';
  const start = text.indexOf(`${heading}\n`);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 1);
    text = text.slice(0, start) + section + (next >= 0 ? text.slice(next + 1) : '');
  } else {
    text = `${text.trimEnd()}\n\n${section}`;
  }
  fs.writeFileSync(BENCHMARKS_FILE, text);
}
