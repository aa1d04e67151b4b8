/**
 * The client relay (lib/mcp/client-relay.ts): a server's question during a request made for another
 * client goes to that client while the request runs, to the host before and after it, and never to
 * anything started outside a relay (a connection opened meanwhile).
 */
import { describe, expect, it } from "vitest";
import { ProtocolError } from "@modelcontextprotocol/client";
import { type RoundTrip, clientRelay, withClientRelay, withRoundTrip, withoutClientRelay } from "@/lib/mcp/client-relay";
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

describe("a 2026-07-28 client's round trip", () => {
  const asked = { resultType: "input_required", inputRequests: { name: { method: "elicitation/create", params: {} } }, requestState: "s1" };
  const done = { content: [{ type: "text", text: "hi" }] };

  it("carries the client's responses, state and capabilities to a 2026-07-28 server, and keeps its input_required for the client", async () => {
    const roundTrip: RoundTrip = { inputResponses: { name: { action: "accept" } }, requestState: "s0", capabilities: { sampling: {} } };
    const legs: unknown[] = [];
    const result = await withClientRelay({ roundTrip }, () =>
      withRoundTrip(true, { content: [] }, async (leg) => {
        legs.push(leg);
        return asked as never;
      }),
    );
    expect(legs).toEqual([
      {
        params: {
          inputResponses: { name: { action: "accept" } },
          requestState: "s0",
          _meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } },
        },
        options: { allowInputRequired: true },
      },
    ]);
    expect(result).toEqual({ content: [] });
    expect(roundTrip.returned).toEqual(asked);
  });

  it("passes a complete answer on, and notes the server's JSON-RPC refusal", async () => {
    const roundTrip: RoundTrip = {};
    expect(await withClientRelay({ roundTrip }, () => withRoundTrip(true, { content: [] }, async () => done))).toEqual(done);
    expect(roundTrip.returned).toBeUndefined();
    const refusal = new ProtocolError(-32602, "tampered state");
    await expect(
      withClientRelay({ roundTrip }, () =>
        withRoundTrip(true, { content: [] }, async () => {
          throw refusal;
        }),
      ),
    ).rejects.toBe(refusal);
    expect(roundTrip.refusal).toBe(refusal);
  });

  it("adds nothing on a 2025-era connection or without a round trip", async () => {
    for (const [modern, relay] of [
      [false, { roundTrip: { requestState: "s0" } }],
      [true, {}],
    ] as const) {
      const legs: unknown[] = [];
      await withClientRelay(relay, () =>
        withRoundTrip(modern, { content: [] }, async (leg) => {
          legs.push(leg);
          return done;
        }),
      );
      expect(legs).toEqual([{ params: {}, options: {} }]);
    }
  });
});
