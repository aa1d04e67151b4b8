/**
 * The sandbox leases of a replica (lib/runtime/sandbox-leases.ts) on the test's database: one owner
 * at a time, kept while any of its holds runs, lost when another took it after it ran out, given up
 * before it could run out when it cannot be renewed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { leaseHolder } from "@/db/queries/leases";
import { FENCE_MARGIN_MS, SANDBOX_LEASE_MS, SANDBOX_RENEW_MS, SandboxLeases, sandboxLeaseName } from "@/lib/runtime/sandbox-leases";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir = "";
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

/** A replica's leases on a clock the test moves. */
function replica(owner: string, clock = { now: Date.now() }) {
  return {
    leases: new SandboxLeases(
      getDb,
      () => owner,
      () => clock.now,
    ),
    clock,
  };
}

const settled = (promise: Promise<void>) => Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);

describe("sandbox leases", () => {
  it("have one owner at a time, and pass on once given back", async () => {
    const a = replica("a");
    const b = replica("b");
    const hold = await a.leases.take("u1", "s1");
    expect(hold).not.toBeNull();
    expect(a.leases.holds("u1", "s1")).toBe(true);
    expect(await b.leases.take("u1", "s1")).toBeNull();
    expect(b.leases.holds("u1", "s1")).toBe(false);
    await hold!.release();
    expect(await leaseHolder(getDb(), sandboxLeaseName("u1", "s1"))).toBeNull();
    expect(await b.leases.take("u1", "s1")).not.toBeNull();
  });

  it("stay while any hold of the replica runs (a connection test beside the connection)", async () => {
    const a = replica("a");
    const first = await a.leases.take("u2", "s2");
    const second = await a.leases.take("u2", "s2");
    await first!.release();
    expect((await leaseHolder(getDb(), sandboxLeaseName("u2", "s2")))?.owner).toBe("a");
    await second!.release();
    expect(await leaseHolder(getDb(), sandboxLeaseName("u2", "s2"))).toBeNull();
    expect(a.leases.size).toBe(0);
  });

  it("are renewed while held, and lost once another replica took one that ran out", async () => {
    const clock = { now: Date.now() };
    const a = replica("a", clock);
    const b = replica("b", { now: clock.now });
    const hold = (await a.leases.take("u3", "s3"))!;
    clock.now += SANDBOX_RENEW_MS;
    await a.leases.renew();
    expect((await leaseHolder(getDb(), sandboxLeaseName("u3", "s3")))!.expiresAt.getTime()).toBe(clock.now + SANDBOX_LEASE_MS);
    expect(await b.leases.take("u3", "s3")).toBeNull();
    // B's clock is past the lease's end (A stopped renewing): B takes it, and A's next round learns it lost it.
    b.clock.now = clock.now + SANDBOX_LEASE_MS + 1;
    expect(await b.leases.take("u3", "s3")).not.toBeNull();
    expect(await settled(hold.lost)).toBe(false);
    await a.leases.renew();
    expect(await settled(hold.lost)).toBe(true);
    expect(a.leases.holds("u3", "s3")).toBe(false);
    // Giving back a lost hold leaves the new owner's lease alone.
    await hold.release();
    expect((await leaseHolder(getDb(), sandboxLeaseName("u3", "s3")))?.owner).toBe("b");
  });

  it("are given up before they could run out when they cannot be renewed (the sandbox stops in time)", async () => {
    let reachable = true;
    const clock = { now: Date.now() };
    const leases = new SandboxLeases(
      () => {
        if (!reachable) throw new Error("the database is out of reach");
        return getDb();
      },
      () => "a",
      () => clock.now,
    );
    const hold = (await leases.take("u4", "s4"))!;
    reachable = false;
    await leases.renew();
    clock.now += SANDBOX_LEASE_MS - FENCE_MARGIN_MS - SANDBOX_RENEW_MS - 1;
    leases.fence();
    expect(await settled(hold.lost)).toBe(false);
    expect(leases.holds("u4", "s4")).toBe(true);
    clock.now += 2;
    leases.fence();
    expect(await settled(hold.lost)).toBe(true);
    expect(leases.holds("u4", "s4")).toBe(false);
  });
});
