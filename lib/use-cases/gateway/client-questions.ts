/**
 * The upstream's questions during a gateway request, asked of the gateway's own client
 * (docs/gateway.md#questions-from-the-server): an `elicitation/create` or `sampling/createMessage`
 * the server sends while the request runs goes to the MCP client that made the request, on that
 * request's stream, when the client declared it can answer; otherwise Switchboard answers as for
 * the chat (the member is asked in the app, the workspace's model samples).
 *
 * Only a 2025-11-25 session can be asked mid-request: a 2026-07-28 request has no stream for
 * server requests, so Switchboard answers for it.
 */
import "server-only";
import type { CreateMessageResult } from "@modelcontextprotocol/client";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { type ClientRelay, withClientRelay } from "../../mcp/client-relay";
import { isSafeLinkUrl } from "../../net/url-safety";
import { isPrivateTarget } from "../../runtime/elicitation-checks";
import { ELICITATION_TTL_MS } from "../../runtime/elicitations";

/** Run `request` (an upstream request made for the client of `mcp`) with the client answering the upstream's questions it can. */
export function askingClient<T>(mcp: Server, ctx: ServerContext, request: () => Promise<T>): Promise<T> {
  const relay = clientRelayFor(mcp, ctx);
  return relay ? withClientRelay(relay, request) : request();
}

/** What the client of `mcp` can answer during the request `ctx`, or null when nothing. */
export function clientRelayFor(mcp: Server, ctx: ServerContext): ClientRelay | null {
  // 2026-07-28 requests carry an envelope and cannot be sent server requests.
  if (ctx.mcpReq.envelope !== undefined) return null;
  const capabilities = mcp.getClientCapabilities();
  const elicitation = capabilities?.elicitation;
  // `elicitation: {}` is form mode (the 2025-06-18 shape).
  const modes = { form: !!elicitation && (!!elicitation.form || !elicitation.url), url: !!elicitation?.url };
  // On this request's own stream: the SDK leaves the related request out otherwise (see approveThroughClient).
  const options = (signal: AbortSignal) => ({ relatedRequestId: ctx.mcpReq.id, signal, timeout: ELICITATION_TTL_MS });
  const relay: ClientRelay = {};
  if (modes.form || modes.url) {
    relay.elicit = (params, signal) => {
      const mode = params.mode === "url" ? "url" : "form";
      if (!modes[mode]) return undefined;
      // The same refusals as in the app: a server may only send the user to a public http(s) page.
      if (mode === "url") {
        const url = (params as { url: string }).url;
        if (!isSafeLinkUrl(url) || isPrivateTarget(url)) return Promise.resolve({ action: "decline" as const });
      }
      return ctx.mcpReq.elicitInput(params as Parameters<typeof ctx.mcpReq.elicitInput>[0], options(signal));
    };
  }
  if (capabilities?.sampling) {
    // A request offering tools needs a client that declared `sampling.tools`; otherwise the host answers.
    relay.sample = (params, signal) =>
      params.tools?.length && !capabilities.sampling?.tools
        ? undefined // (A result with tool_use blocks is still a sampling result: the engine's type names the plain shape.)
        : (ctx.mcpReq.requestSampling(params, options(signal)) as Promise<CreateMessageResult>);
  }
  return relay.elicit || relay.sample ? relay : null;
}
