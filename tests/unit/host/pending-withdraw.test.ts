/**
 * Pending requests of a removed server are withdrawn: they leave the user's queue, the server gets
 * "cancel", and answering the old id delivers nothing.
 */
import { describe, expect, it } from "vitest";
import { ElicitationBroker } from "@/lib/host/elicitations";

const removed = { id: "s1", name: "removed", config: { url: "https://x.example/mcp" } };
const kept = { id: "s2", name: "kept", config: { url: "https://y.example/mcp" } };
const form = {
  message: "Your password?",
  requestedSchema: { type: "object" as const, properties: { password: { type: "string" as const } } },
};

describe("withdrawing a removed server's requests", () => {
  it("empties them from the queue and never delivers a late answer", async () => {
    const broker = new ElicitationBroker();
    const answerToRemoved = broker.request("alice", removed, form, new AbortController().signal);
    const answerToKept = broker.request("alice", kept, form, new AbortController().signal);
    const oldId = broker.list("alice").find((view) => view.serverId === "s1")!.id;

    expect(broker.withdrawServer("s1")).toBe(1);
    expect(broker.list("alice").map((view) => view.serverId)).toEqual(["s2"]);
    await expect(answerToRemoved).resolves.toEqual({ action: "cancel" });
    expect(broker.answer("alice", oldId, { action: "accept", content: { password: "hunter2" } })).toBe(false);

    const keptId = broker.list("alice")[0].id;
    expect(broker.answer("alice", keptId, { action: "decline" })).toBe(true);
    await expect(answerToKept).resolves.toEqual({ action: "decline" });
  });
});
