/**
 * What a CPU profile (`node --cpu-prof`) of sequential chat turns says about the work before each
 * turn's first token: only the samples inside the given windows (a turn's request to its first
 * token, on the profile's monotonic clock) count. Self time per function and per package (a
 * sample's stack does not say which stage of the turn it belongs to: after an `await` it holds only
 * the continuation).
 */
import fs from 'node:fs';

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Node's own code by what it does for a turn. */
const nodeAreaOf = (url: string) =>
  url.includes('/webstreams/')
    ? 'web streams'
    : url.includes('undici')
      ? 'undici (the request to the model)'
      : /_http_|node:http/.test(url)
        ? 'http'
        : /node:net|streams\/|node:stream/.test(url)
          ? 'sockets and Node streams'
          : 'other';

const packageOf = (url: string) => {
  if (!url) return '(native / V8)';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (modules) return modules.at(-1)!.replace('node_modules/', '');
  if (url.startsWith('node:')) return `node core: ${nodeAreaOf(url)}`;
  if (url.includes('/apps/server/dist/')) return 'cadre';
  return url.split('/').slice(-2).join('/');
};

export function beforeFirstToken(file: string, windows: { from: number; to: number }[]) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  let busy = 0;
  let t = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    while (w < windows.length && t > windows[w]!.to) w++;
    if (w >= windows.length) break;
    if (t < windows[w]!.from) continue;
    const id = profile.samples[i]!;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const us = profile.timeDeltas[i + 1] ?? 0;
    busy += us;
    const key = `${functionName || '(anonymous)'} ${url ? `${packageOf(url)} ${url.split('/').at(-1)}:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + us);
    let pkg = packageOf(url);
    for (let at = parentOf.get(id); !url && at !== undefined; at = parentOf.get(at)) {
      const caller = byId.get(at)!.callFrame.url;
      if (caller) {
        pkg = packageOf(caller);
        break;
      }
    }
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const perTurn = (us: number) => Math.round((us / windows.length) * 10) / 10000;
  const rank = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, msPerTurn: perTurn(us), percent: Math.round((1000 * us) / busy) / 10 }));
  return {
    turns: windows.length,
    busyMsPerTurn: perTurn(busy),
    packages: rank(packages, 12),
    top: rank(self, 30),
  };
}
