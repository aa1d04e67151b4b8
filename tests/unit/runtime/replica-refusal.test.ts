/** Which replicas may join beside which (lib/runtime/replica-registry.ts `refusal`, `runningOthers`). */
import { describe, expect, it } from "vitest";
import type { ReplicaRow } from "@/db/queries/replicas";
import { refusal, runningOthers } from "@/lib/runtime/replica-registry";

const at = new Date("2026-11-28T10:00:00Z");
const row = (over: Partial<ReplicaRow>): ReplicaRow => ({
  id: "r1",
  host: "box-a",
  pid: 100,
  version: "0.1.0+build1",
  clustered: true,
  startedAt: at,
  heartbeatAt: at,
  internalUrl: null,
  ...over,
});

describe("replica refusal", () => {
  it("admits the first server and same-build cluster replicas", () => {
    expect(refusal(row({ clustered: false }), [])).toBeNull();
    expect(refusal(row({}), [row({ id: "r2", host: "box-b" })])).toBeNull();
  });

  it("refuses a second single-node server, a cluster replica beside a single node, and another build", () => {
    expect(refusal(row({ clustered: false }), [row({ id: "r2" })])).toMatch(/set the same REDIS_URL on every one/);
    expect(refusal(row({}), [row({ id: "r2", clustered: false })])).toMatch(/replica r2 on box-a .* without REDIS_URL/);
    expect(refusal(row({}), [row({ id: "r2", version: "0.1.0+build0" })])).toMatch(
      /replica r2 on box-a .* runs build 0\.1\.0\+build0, this server is build 0\.1\.0\+build1/,
    );
  });

  it("ignores rows of this host whose process is gone or is this very process", () => {
    const self = row({ pid: 100 });
    const others = [
      row({ id: "dead", pid: 200 }),
      row({ id: "me-before", pid: 100 }),
      row({ id: "alive", pid: 300 }),
      row({ id: "elsewhere", host: "box-b", pid: 200 }),
    ];
    const alive = (pid: number) => pid === 300;
    expect(runningOthers(self, others, alive).map((r) => r.id)).toEqual(["alive", "elsewhere"]);
  });
});
