/**
 * A summary of a V8 CPU profile (`node --cpu-prof`) over a time window: the functions with the most
 * self time, and self time by package. Native work without a JS frame is charged to its JS caller,
 * so better-sqlite3's synchronous statements show as kysely's `executeQuery`.
 */
import fs from 'node:fs';

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the clock V8 stamps its samples with (CLOCK_MONOTONIC, as process.hrtime). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export interface Frame {
  name: string;
  where: string;
  ms: number;
  /** Share of the busy (non-idle) time in the window, in %. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  windowMs: number;
  top: Frame[];
  packages: { name: string; ms: number; percent: number }[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function packageOf(url: string): string {
  if (!url) return '(native / V8)';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (modules) return modules.at(-1)!.replace('node_modules/', '');
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('/apps/server/dist/')) return 'cadre';
  return url.split('/').slice(-2).join('/');
}

/** Self time per function and per package between `fromUs` and `toUs` (monotonic µs). */
export function summarizeProfile(file: string, fromUs: number, toUs: number, top = 10): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** A native frame (no script) belongs to the package of the JavaScript that called it. */
  const callerPackage = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { url } = byId.get(at)!.callFrame;
      if (url) return packageOf(url);
    }
    return packageOf('');
  };
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < fromUs || t > toUs) continue;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const frames = new Map<string, { name: string; where: string; us: number }>();
  const packages = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busyUs += us;
    const name = functionName || '(anonymous)';
    const where = url
      ? `${packageOf(url)} ${url.split('/').at(-1)}:${lineNumber + 1}`
      : SPECIAL.has(functionName)
        ? 'V8'
        : `native, called from ${callerPackage(id)}`;
    const key = `${name}|${where}`;
    const frame = frames.get(key) ?? { name, where, us: 0 };
    frame.us += us;
    frames.set(key, frame);
    const pkg = SPECIAL.has(functionName) ? functionName : callerPackage(id);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const percent = (us: number) => Math.round((1000 * us) / busyUs) / 10;
  return {
    busyMs: busyUs / 1000,
    windowMs: (toUs - fromUs) / 1000,
    top: [...frames.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, ms: f.us / 1000, percent: percent(f.us) })),
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, percent: percent(us) })),
  };
}
