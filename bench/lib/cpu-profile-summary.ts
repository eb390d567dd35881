import { readFileSync } from 'node:fs';

/**
 * Reads a .cpuprofile (V8's sampled profile, as `node --cpu-prof` or the inspector writes it) and
 * prints where the busy samples went: self time by package (node_modules/<name>, the project's
 * own directories, node's internals), the same with node's internals charged to their nearest caller
 * of a package or the project (a socket write to Redis counts for ioredis), and the heaviest functions, each as a share of the samples
 * that were not idle. `npx ts-node --transpile-only bench/lib/cpu-profile-summary.ts <file> [top]`
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function group(url: string, name: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    return pkg[1];
  }
  const own = /\/(src\/(?:core|modules)\/[^/]+|bench\/[^/]+)/.exec(url);
  if (own) {
    return own[1];
  }
  if (url.startsWith('node:')) {
    return `node:${url.slice(5).split('/')[0]}`;
  }
  return url === '' ? `(${name || 'native'})` : url;
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const top = Number(topArg ?? 25);
  const byGroup = new Map<string, number>();
  const charged = new Map<string, number>();
  const parent = new Map<number, ProfileNode>();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) {
    node.children?.forEach((child) => parent.set(child, node));
  }
  /** The nearest frame, this one or a caller, that is a package's or the project's code. */
  const owner = (node: ProfileNode): string => {
    for (let at: ProfileNode | undefined = node; at; at = parent.get(at.id)) {
      const g = group(at.callFrame.url, at.callFrame.functionName);
      if (!g.startsWith('node:') && !g.startsWith('(')) {
        return g;
      }
    }
    return group(node.callFrame.url, node.callFrame.functionName);
  };
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)' || functionName === '(program)') {
      continue;
    }
    busy += hits;
    const g = group(url, functionName);
    byGroup.set(g, (byGroup.get(g) ?? 0) + hits);
    const o = owner(nodes.get(node.id)!);
    charged.set(o, (charged.get(o) ?? 0) + hits);
    const key = `${functionName || '(anonymous)'} ${g}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`${title}\n`);
    for (const [name, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((hits * 100) / busy).toFixed(1).padStart(6)} %  ${name}\n`);
    }
  };
  print(`busy samples: ${busy}; self time by package`, byGroup);
  print("node's internals and native code charged to the nearest package or project caller", charged);
  print('self time by function', byFunction);
}

main();
