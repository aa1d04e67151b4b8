/**
 * Pending requests of a removed server are withdrawn: they leave the user's queue, the server gets
 * "cancel", and answering the old id delivers nothing.
 */
import { describe, expect, it } from "vitest";
import { ElicitationBroker } from "@/lib/runtime/elicitations";

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

describe("what a server may ask", () => {
  it("refuses URL elicitations to loopback or private addresses without asking", async () => {
    const broker = new ElicitationBroker();
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://192.168.1.1/admin",
      "http://[::1]/",
      "http://169.254.169.254/",
    ]) {
      await expect(
        broker.request("alice", kept, { mode: "url", message: "go", url, elicitationId: "e" }, new AbortController().signal),
      ).resolves.toEqual({ action: "decline" });
    }
    expect(broker.list("alice")).toEqual([]);
    void broker.request(
      "alice",
      kept,
      { mode: "url", message: "go", url: "https://login.example.com/", elicitationId: "e" },
      new AbortController().signal,
    );
    expect(broker.list("alice")).toHaveLength(1);
  });

  it("names secret-looking form fields so the dialog warns", () => {
    const broker = new ElicitationBroker();
    void broker.request("alice", kept, form, new AbortController().signal);
    const schema = {
      type: "object" as const,
      properties: { name: { type: "string" as const }, one_time_code: { type: "string" as const } },
    };
    void broker.request("alice", kept, { message: "code?", requestedSchema: schema }, new AbortController().signal);
    const [first, second] = broker.list("alice");
    expect(first.secretFields).toEqual(["password"]);
    expect(second.secretFields).toEqual(["one_time_code"]);
  });
});
