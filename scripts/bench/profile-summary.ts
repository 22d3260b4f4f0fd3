// Summarises a V8 .cpuprofile (from `run.ts --profile DIR`): the functions with the most self time, and the most
// inclusive time, grouped by function and file. Usage: node --import tsx scripts/bench/profile-summary.ts FILE [N]
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(n: ProfileNode): string {
  const file = n.callFrame.url.replace(/^.*\/(node_modules\/)/, '$1').replace(/^file:\/\/.*\/(src|scripts)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
}

export function summarise(profile: CpuProfile, top = 40): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);

  const selfBy = new Map<string, number>();
  const inclusiveBy = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    selfBy.set(label(n), (selfBy.get(label(n)) ?? 0) + t);
    // Each sample counts once per distinct function on its stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusiveBy.set(l, (inclusiveBy.get(l) ?? 0) + t);
    }
  }
  const pct = (t: number) => `${((t / total) * 100).toFixed(1).padStart(5)}%`;
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([l, t]) => `${pct(t)}  ${l}`)
      .join('\n');
  return `total ${(total / 1e6).toFixed(2)} s sampled\n\n== self\n${list(selfBy)}\n\n== inclusive\n${list(inclusiveBy)}\n`;
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [N]');
  process.stdout.write(summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, Number(process.argv[3] ?? 40)));
}
