/**
 * The client relay (lib/mcp/client-relay.ts): a server's question during a request made for another
 * client goes to that client while the request runs, to the host before and after it, and never to
 * anything started outside a relay (a connection opened meanwhile).
 */
import { describe, expect, it } from "vitest";
import { clientRelay, withClientRelay, withoutClientRelay } from "@/lib/mcp/client-relay";
import { relayingElicitation } from "@/lib/mcp/connection-options";
import type { ServerDefinition } from "@/lib/mcp";

const server = { id: "s1", name: "docs" } as ServerDefinition;
const params = { mode: "form" as const, message: "Name?", requestedSchema: { type: "object" as const, properties: {} } };
const signal = new AbortController().signal;
const host = relayingElicitation(async () => ({ action: "decline" }));
const client = { elicit: async () => ({ action: "accept" as const, content: { name: "Ada" } }) };

describe("client relay", () => {
  it("asks the client during the request and the host outside it", async () => {
    expect(await host("u1", server, params, signal)).toEqual({ action: "decline" });
    expect(await withClientRelay(client, () => host("u1", server, params, signal))).toEqual({ action: "accept", content: { name: "Ada" } });
  });

  it("asks the host when the client cannot take the request", async () => {
    expect(await withClientRelay({ elicit: () => undefined }, () => host("u1", server, params, signal))).toEqual({ action: "decline" });
  });

  it("is spent once the request settled, even for work that kept its context", async () => {
    let later: Promise<unknown> | undefined;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await withClientRelay(client, async () => {
      // Something the request started that outlives it (a stream reader, a timer).
      later = gate.then(() => host("u1", server, params, signal));
    });
    release();
    expect(await later).toEqual({ action: "decline" });
  });

  it("is not seen by work started without one", async () => {
    await withClientRelay(client, async () => {
      expect(clientRelay()).toBeDefined();
      expect(withoutClientRelay(() => clientRelay())).toBeUndefined();
      expect(await withoutClientRelay(() => host("u1", server, params, signal))).toEqual({ action: "decline" });
    });
  });
});
