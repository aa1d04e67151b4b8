/** Only the latest call's answer counts: an earlier, slower answer never overwrites a newer one. */
import { describe, expect, it } from "vitest";
import { latestOnly } from "@/app/_components/latest-only";

/** A promise and the functions that settle it, so the test decides the order answers arrive in. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("latestOnly", () => {
  it("marks an earlier call's later answer stale, and hands the latest one over", async () => {
    const run = latestOnly();
    const everyone = deferred<string[]>();
    const filtered = deferred<string[]>();
    const first = run(() => everyone.promise);
    const second = run(() => filtered.promise);
    filtered.resolve(["someone@example.com"]);
    expect(await second).toEqual({ stale: false, value: ["someone@example.com"] });
    everyone.resolve(["a", "b", "c"]);
    expect(await first).toEqual({ stale: true });
  });

  it("throws the latest call's error, and drops an earlier call's", async () => {
    const run = latestOnly();
    const early = deferred<number>();
    const late = deferred<number>();
    const first = run(() => early.promise);
    const second = run(() => late.promise);
    early.reject(new Error("old failure"));
    expect(await first).toEqual({ stale: true });
    late.reject(new Error("current failure"));
    await expect(second).rejects.toThrow("current failure");
  });

  it("answers a lone call", async () => {
    expect(await latestOnly()(async () => 42)).toEqual({ stale: false, value: 42 });
  });
});
