/**
 * Reading a V8 `.cpuprofile` (from `node --cpu-prof`): self time per frame and per package, so
 * docs/performance.md can say where the time of a request goes; and a sampling `.heapprofile`
 * (`--heap-prof`, bench/inspector.ts): the bytes still alive per allocation site and package.
 * Used by bench/profile.ts and the load mode (bench/crowd.ts).
 */
import fs from "node:fs";

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

/** One line of the summary: a frame or a package and its share of the sampled time. */
export interface Share {
  label: string;
  ms: number;
  percent: number;
}

function packageOf(url: string): string {
  if (!url) return "(native/idle/gc)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return "node core";
  if (url.includes("/.next/")) return "app bundle (.next)";
  return "other";
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const next = url.indexOf("/.next/");
  return next >= 0 ? url.slice(next + 1) : url;
}

/** Top frames by self time and the split by package, excluding idle time. */
export function summarise(file: string, top = 25): { total: number; frames: Share[]; packages: Share[] } {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const frames = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") continue;
    total += ms;
    const label = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    frames.set(label, (frames.get(label) ?? 0) + ms);
    const pkg = frame.functionName === "(garbage collector)" ? "(garbage collector)" : packageOf(frame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const rank = (map: Map<string, number>, n: number): Share[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, ms]) => ({ label, ms, percent: (100 * ms) / total }));
  return { total, frames: rank(frames, top), packages: rank(packages, 15) };
}

/** One line of a heap summary: an allocation site or a package and the bytes it keeps alive. */
export interface HeapShare {
  label: string;
  bytes: number;
  percent: number;
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/**
 * Bytes alive per allocation site (self) and per package of a sampling heap profile, top first;
 * `total` is every sampled byte. A site is the allocating frame; `via` names its caller, which is
 * what tells one `Buffer` apart from another.
 */
export function summariseHeap(file: string, top = 25): { total: number; frames: HeapShare[]; packages: HeapShare[] } {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as { head: HeapNode };
  const frames = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, parent: HeapNode | null) => {
    if (node.selfSize > 0) {
      total += node.selfSize;
      const at = (n: HeapNode) => `${n.callFrame.functionName || "(anonymous)"} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
      const label = parent ? `${at(node)} via ${at(parent)}` : at(node);
      frames.set(label, (frames.get(label) ?? 0) + node.selfSize);
      const pkg = packageOf(node.callFrame.url);
      packages.set(pkg, (packages.get(pkg) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, node);
  };
  walk(profile.head, null);
  const rank = (map: Map<string, number>, n: number): HeapShare[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, bytes]) => ({ label, bytes, percent: (100 * bytes) / Math.max(1, total) }));
  return { total, frames: rank(frames, top), packages: rank(packages, 15) };
}
