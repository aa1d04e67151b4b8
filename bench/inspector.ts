/**
 * The app's V8 inspector from the bench (the app runs with `--inspect=127.0.0.1:<port>`, harness
 * `startApp`): a CPU profile of one phase of a load run, and the sampling heap profile of what a
 * phase leaves alive (the same profilers as `--cpu-prof` and `--heap-prof`, started and stopped
 * around the phase instead of the whole process), written as `.cpuprofile` / `.heapprofile` files.
 */
import fs from "node:fs";
import path from "node:path";

/** A connection to the app's inspector: send a method, await its result. */
export interface Inspector {
  post<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

/** Connect to the inspector listening on `port` (the app's first and only target). */
export async function openInspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`the app's inspector on port ${port} refused the connection`));
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  };
  return {
    post: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Run `phase` under the CPU profiler; the profile is written to `<dir>/<name>.cpuprofile`, its path returned. */
export async function cpuProfiled<T>(inspector: Inspector, dir: string, name: string, phase: () => Promise<T>): Promise<[T, string]> {
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.start");
  const result = await phase();
  const { profile } = await inspector.post<{ profile: unknown }>("Profiler.stop");
  const file = path.join(dir, `${name}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  return [result, file];
}

/**
 * Run `phase` under the sampling heap profiler and keep what is still alive at its end (after a
 * full collection): `<dir>/<name>.heapprofile`, by allocation site; its path returned.
 */
export async function heapSampled<T>(inspector: Inspector, dir: string, name: string, phase: () => Promise<T>): Promise<[T, string]> {
  await inspector.post("HeapProfiler.enable");
  // One sample per 16 KiB allocated on average (V8's default is 32 KiB): enough for per-site shares.
  await inspector.post("HeapProfiler.startSampling", { samplingInterval: 16_384 });
  const result = await phase();
  await inspector.post("HeapProfiler.collectGarbage");
  const { profile } = await inspector.post<{ profile: unknown }>("HeapProfiler.stopSampling");
  const file = path.join(dir, `${name}.heapprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  return [result, file];
}

/**
 * The app's count of writes that move the lookup caches' change stamp (db/generation.ts keeps it on
 * globalThis): each one empties every lookup cache, so the count per phase says how often a call
 * had to read its session, server and trust rows again. Null when the app has none yet.
 */
export async function stampWrites(inspector: Inspector): Promise<number | null> {
  const { result } = await inspector.post<{ result: { value?: string } }>("Runtime.evaluate", {
    expression: "JSON.stringify(globalThis[Symbol.for('switchboard.db.generation')]?.writes ?? null)",
    returnByValue: true,
  });
  return result.value === undefined ? null : (JSON.parse(result.value) as number | null);
}

/**
 * Run `phase` with V8 counting every call of every function (precise coverage, function level):
 * the work done, as counts rather than time, so a machine's noise does not enter it. Returns the
 * counts by "name file" (functions of one name in one file summed). Counting slows the code down:
 * never run it inside a timed phase.
 */
export async function callCounts<T>(inspector: Inspector, phase: () => Promise<T>): Promise<[T, Map<string, number>]> {
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  await inspector.post("Profiler.takePreciseCoverage"); // counts start from here
  const result = await phase();
  type Coverage = { result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[] };
  const coverage = await inspector.post<Coverage>("Profiler.takePreciseCoverage");
  await inspector.post("Profiler.stopPreciseCoverage");
  const counts = new Map<string, number>();
  for (const script of coverage.result) {
    const file = script.url.slice(script.url.lastIndexOf("/") + 1);
    for (const fn of script.functions) {
      if (!fn.functionName || fn.ranges[0].count === 0) continue;
      const key = `${fn.functionName} ${file}`;
      counts.set(key, (counts.get(key) ?? 0) + fn.ranges[0].count);
    }
  }
  return [result, counts];
}
