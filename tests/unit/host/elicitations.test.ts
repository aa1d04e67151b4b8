import { describe, expect, it } from "vitest";
import { ElicitationBroker } from "@/lib/runtime/elicitations";
import { contentOf, fieldsOf } from "@/app/_components/pending/elicitation-form-model";

const server = { id: "s1", name: "everything", config: { url: "https://x.example/mcp" } };
const form = { message: "Your name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };

describe("elicitation broker", () => {
  it("lists a request only to its user and takes the answer only from them", async () => {
    const broker = new ElicitationBroker();
    const result = broker.request("alice", server, form, new AbortController().signal);
    const [pending] = broker.list("alice");
    expect(pending).toMatchObject({ serverName: "everything", mode: "form", message: "Your name?" });
    expect(broker.list("bob")).toEqual([]);
    expect(broker.answer("bob", pending.id, { action: "accept", content: { name: "Mallory" } })).toBe(false);
    expect(broker.answer("alice", pending.id, { action: "accept", content: { name: "Alice" } })).toBe(true);
    await expect(result).resolves.toEqual({ action: "accept", content: { name: "Alice" } });
    expect(broker.list("alice")).toEqual([]);
    expect(broker.answer("alice", pending.id, { action: "decline" })).toBe(false); // single use
  });

  it("cancels when the server aborts and declines when it expires", async () => {
    const broker = new ElicitationBroker(20);
    const abort = new AbortController();
    const cancelled = broker.request("alice", server, form, abort.signal);
    abort.abort();
    await expect(cancelled).resolves.toEqual({ action: "cancel" });
    await expect(broker.request("alice", server, form, new AbortController().signal)).resolves.toEqual({ action: "decline" });
    expect(broker.list("alice")).toEqual([]);
  });

  it("shows the target host of URL mode and refuses non-http URLs without asking", async () => {
    const broker = new ElicitationBroker();
    void broker.request(
      "alice",
      server,
      { mode: "url", message: "Sign in", url: "https://login.example.com/a?b=c", elicitationId: "e1" },
      new AbortController().signal,
    );
    expect(broker.list("alice")[0]).toMatchObject({ mode: "url", host: "login.example.com" });
    const refused = broker.request(
      "alice",
      server,
      { mode: "url", message: "x", url: "javascript:alert(1)", elicitationId: "e2" },
      new AbortController().signal,
    );
    await expect(refused).resolves.toEqual({ action: "decline" });
    expect(broker.list("alice")).toHaveLength(1);
  });
});

describe("elicitation form model", () => {
  const schema = {
    type: "object",
    required: ["name"],
    properties: {
      name: { type: "string", title: "Name" },
      story: { type: "string", default: "It was a dark and stormy night." },
      age: { type: "integer", default: 30 },
      score: { type: "number" },
      agree: { type: "boolean", default: true },
      colour: { type: "string", enum: ["red", "green"], default: "green" },
      pets: { type: "array", items: { enum: ["cat", "dog"] }, default: ["cat"] },
      email: { type: "string", format: "email" },
    },
  };

  it("pre-fills defaults and picks a control per type", () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind, f.initial])).toEqual([
      ["name", "text", ""],
      ["story", "text", "It was a dark and stormy night."],
      ["age", "integer", "30"],
      ["score", "number", ""],
      ["agree", "boolean", true],
      ["colour", "select", "green"],
      ["pets", "multi", ["cat"]],
      ["email", "email", ""],
    ]);
    expect(fields[0].required).toBe(true);
  });

  it("types the answer and leaves out empty optional fields", () => {
    const fields = fieldsOf(schema);
    expect(
      contentOf(fields, { name: "Ada", story: "x", age: "41.7", score: "", agree: false, colour: "red", pets: ["dog"], email: "" }),
    ).toEqual({ name: "Ada", story: "x", age: 41, agree: false, colour: "red", pets: ["dog"] });
  });
});
