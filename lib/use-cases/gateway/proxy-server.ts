/**
 * One workspace server as an MCP server of its own (docs/gateway.md): a low-level SDK `Server` whose
 * every handler runs the request on the calling member's (user, server) connection through the
 * use cases the REST API calls (lib/use-cases/server-ops.ts), so per-member credentials, the tool
 * gate, quotas, audit and usage apply as in the app. The raw names of the server are kept.
 */
import "server-only";
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerCapabilities,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import { AppError } from "../../errors";
import { errorBody } from "../../http";
import { EngineError } from "../../mcp/errors";
import type { TrustActor } from "../../trust/permissions";
import { stripInvisible } from "../../trust/untrusted-text";
import {
  callServerTool,
  completeServerArgument,
  getServerPrompt,
  readServerResource,
  serverPrompts,
  serverResources,
  serverTools,
} from "../server-ops";
import { askingClient } from "./client-questions";
import { connectOrThrow, orConnect } from "./connect-elicitation";
import { onClosed, relayListChanges } from "./list-changes";
import { GatewayLog } from "./log-relay";
import { deliveredResult } from "./results";
import { SessionSources } from "./session-sources";
import { SessionSubscriptions } from "./subscriptions";
import { approveInSwitchboard, shownArgs } from "./ui-approval";
import type { UpstreamHandshake } from "./upstream";

/** Who calls which server: the token's member acting in the token's workspace. */
export interface GatewayTarget {
  actor: TrustActor;
  serverId: string;
}

// A client names itself in `initialize` (or the request's envelope); untrusted text kept short for the audit.
const CLIENT_NAME_MAX = 100;

/**
 * Build the proxy `Server` for `target`, declaring what the upstream declared (never more).
 * `sessions`: it serves a 2025-era session, which can be notified later (resource subscriptions).
 */
export function proxyServer(target: GatewayTarget, upstream: UpstreamHandshake, sessions = false): Server {
  // resources/subscribe exists up to 2025-11-25 only: an upstream on 2026-07-28 cannot be asked.
  const capabilities = mirroredCapabilities(upstream.capabilities, sessions && upstream.era === "legacy", sessions);
  const server = new Server(upstream.serverInfo, {
    capabilities,
    ...(upstream.instructions ? { instructions: upstream.instructions } : {}),
  });
  const { actor, serverId } = target;
  // A session's client hears when the server's lists change (list-changes.ts).
  if (sessions) relayListChanges(server, actor, [serverId]);
  // The server's log, relayed at the level the client asked for (log-relay.ts).
  const log = capabilities.logging ? new GatewayLog(server, actor, [{ serverId }], sessions) : null;
  // What this session has handed its client from the server: the lethal-trifecta rule's state.
  const sources = new SessionSources();
  const source = { serverId, serverName: upstream.serverInfo.name };
  // What the client gets of the server's content: sanitised, redacted and labelled (results.ts).
  const content = { serverName: upstream.serverInfo.name, secrets: upstream.secrets };
  // Every request runs on the member's own connection: one they have not authorized yet answers the
  // Connect elicitation (connect-elicitation.ts), returned as `input_required` where the method allows it.
  const listing = <T>(ctx: ServerContext, run: () => Promise<T>) => guarded(() => connectOrThrow(server, ctx, actor, serverId, run));
  // A request that reaches the server may be asked questions, which go to the client when it can answer (client-questions.ts).
  const calling = <T>(ctx: ServerContext, run: () => Promise<T>, about: { uri?: string } = {}) =>
    guarded(() => orConnect(server, ctx, actor, serverId, () => askingClient(server, ctx, run, upstream)), about);

  if (capabilities.tools) {
    server.setRequestHandler("tools/list", async (_request, ctx) =>
      listing(ctx, async () => ({ tools: listedTools((await serverTools(actor, serverId)).tools) })),
    );
    server.setRequestHandler("tools/call", async (request, ctx) =>
      calling(ctx, async () => {
        const { name, arguments: args = {} } = request.params;
        const outcome = await sources.after(source, () =>
          logged(log, ctx, () =>
            callServerTool(actor, serverId, { name, arguments: args }, ctx.mcpReq.signal, {
              admit: async (policy) => {
                if (policy.action === "ask") await approveThroughClient(server, ctx, target, { name, args, reason: policy.reason });
              },
              origin: { via: "gateway", client: clientNameOf(server) },
              contextSources: sources.list(),
              ...progressRelay(ctx),
            }),
          ),
        );
        return deliveredResult(outcome.content, content);
      }),
    );
  }
  if (capabilities.resources) {
    server.setRequestHandler("resources/list", async (_request, ctx) =>
      listing(ctx, async () => ({ resources: (await serverResources(actor, serverId)).resources })),
    );
    server.setRequestHandler("resources/templates/list", async (_request, ctx) =>
      listing(ctx, async () => ({ resourceTemplates: (await serverResources(actor, serverId)).resourceTemplates })),
    );
    if (capabilities.resources?.subscribe) {
      const subscriptions = new SessionSubscriptions(
        actor,
        serverId,
        (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined),
      );
      onClosed(server, () => subscriptions.closeAll());
      server.setRequestHandler("resources/subscribe", async (request, ctx) =>
        listing(ctx, async () => {
          await subscriptions.subscribe(request.params.uri);
          return {};
        }),
      );
      server.setRequestHandler("resources/unsubscribe", async (request, ctx) =>
        listing(ctx, async () => {
          await subscriptions.unsubscribe(request.params.uri);
          return {};
        }),
      );
    }
    server.setRequestHandler("resources/read", async (request, ctx) =>
      calling(
        ctx,
        async () =>
          deliveredResult(
            await sources.after(source, () => readServerResource(actor, serverId, request.params.uri, ctx.mcpReq.signal)),
            content,
          ),
        { uri: request.params.uri },
      ),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler("prompts/list", async (_request, ctx) => listing(ctx, async () => await serverPrompts(actor, serverId)));
    server.setRequestHandler("prompts/get", async (request, ctx) =>
      calling(ctx, async () =>
        deliveredResult(
          await sources.after(source, () =>
            getServerPrompt(actor, serverId, { name: request.params.name, arguments: request.params.arguments ?? {} }, ctx.mcpReq.signal),
          ),
          content,
        ),
      ),
    );
  }
  if (capabilities.completions) {
    server.setRequestHandler("completion/complete", async (request, ctx) =>
      listing(ctx, async () => {
        const { ref, argument, context } = request.params;
        return await completeServerArgument(actor, serverId, { ref, argument, context });
      }),
    );
  }
  return server;
}

/** Run a tool call under the proxy's log relay, when it relays one: entries logged meanwhile go with the call. */
export function logged<T>(log: GatewayLog | null, ctx: ServerContext, call: () => Promise<T>): Promise<T> {
  return log ? log.during(ctx, call) : call();
}

/** The client's self-declared name (`initialize`, or the request's envelope), stripped and cut for the audit. */
export function clientNameOf(server: Server): string | null {
  const name = server.getClientVersion()?.name;
  return name ? stripInvisible(name).slice(0, CLIENT_NAME_MAX) : null;
}

/**
 * An `ask` tool runs only once the member approves this call: on a 2025-11-25 session whose client
 * declared form elicitation, the gateway asks through it ("Allow … with these arguments?") and runs
 * the call on "accept". Any other client (no form elicitation, or a 2026-07-28 request) waits for
 * the approval made in Switchboard (ui-approval.ts). A refusal is an MCP error and is recorded as a
 * refused call.
 */
export async function approveThroughClient(
  server: Server,
  ctx: ServerContext,
  target: GatewayTarget,
  call: { name: string; args: Record<string, unknown>; reason: string },
): Promise<void> {
  const elicitation = server.getClientCapabilities()?.elicitation;
  // 2025-11-25: `elicitation: {}` means form mode (the 2025-06-18 shape); a 2026-07-28 request carries its envelope.
  const formMode = !!elicitation && (!!elicitation.form || !elicitation.url) && ctx.mcpReq.envelope === undefined;
  if (!formMode) return await approveInSwitchboard(server, ctx, target.actor, target.serverId, clientNameOf(server), call);
  // On this call's own SSE stream: the SDK's `ctx.mcpReq.elicitInput` (Server.buildContext) leaves the
  // related request out, so the question went to the session's GET stream and was dropped when the
  // client had not opened that yet (docs/gateway.md#protocol-versions, an SDK 2.4 bug).
  const answer = await ctx.mcpReq.elicitInput(
    {
      mode: "form",
      message: `Allow "${call.name}" with these arguments?\n${shownArgs(call.args)}\n(${call.reason})`,
      requestedSchema: { type: "object", properties: {} },
    },
    { relatedRequestId: ctx.mcpReq.id },
  );
  if (answer.action !== "accept") {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The call of "${call.name}" was not approved (${answer.action}).`);
  }
}

/**
 * What the proxy declares: the upstream's tools, resources, prompts and completions, nothing else;
 * resource subscriptions when the upstream offers them and `subscriptions` (the proxy serves a
 * session, whose client the updates can reach, and the upstream speaks the 2025 era, which has
 * `resources/subscribe`); `listChanged` for a list the upstream announces changes of, when
 * `listChanges` (a session, whose client can be told: list-changes.ts); `logging` when the upstream
 * declares it (its log is relayed: log-relay.ts).
 * Without a live upstream (not connected, needs authorization) it declares tools only, so a client
 * still initializes and its first request answers why the server cannot be reached.
 */
export function mirroredCapabilities(
  upstream: Record<string, unknown> | null,
  subscriptions = false,
  listChanges = false,
): ServerCapabilities {
  if (!upstream) return { tools: {} };
  const announces = (kind: string) => listChanges && (upstream[kind] as { listChanged?: boolean } | undefined)?.listChanged === true;
  const resources = upstream.resources as { subscribe?: boolean } | undefined;
  const resourceFlags = {
    ...(subscriptions && resources?.subscribe === true ? { subscribe: true } : {}),
    ...(announces("resources") ? { listChanged: true } : {}),
  };
  return {
    ...(upstream.tools ? { tools: announces("tools") ? { listChanged: true } : {} } : {}),
    ...(resources ? { resources: resourceFlags } : {}),
    ...(upstream.prompts ? { prompts: announces("prompts") ? { listChanged: true } : {} } : {}),
    ...(upstream.completions ? { completions: {} } : {}),
    ...(upstream.logging ? { logging: {} } : {}),
  };
}

/** A tool of a server with the policy a hand call of it meets (lib/use-cases/server-ops.ts). */
export type GatedTool = Awaited<ReturnType<typeof serverTools>>["tools"][number];

/**
 * The server's own tools as MCP `Tool`s under their raw names (or the names `nameOf` gives them,
 * leaving out those it names nothing): held and `never` tools are left out
 * (a call of one by name is refused by the gate), as are the engine's wrapper tools, which exist
 * for the chat's model and are not the server's. Titles and descriptions are the stripped ones the
 * app shows (lib/trust/untrusted-text.ts).
 */
export function listedTools(tools: GatedTool[], nameOf: (tool: GatedTool) => string | undefined = (tool) => tool.rawName): Tool[] {
  return tools
    .filter((tool) => tool.kind === "tool" && tool.policy.action !== "held" && tool.policy.action !== "never" && nameOf(tool) !== undefined)
    .map((tool) => ({
      name: nameOf(tool) as string,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema as Tool["inputSchema"],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool["outputSchema"] } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    }));
}

// A progress message is the server's text shown by the client: stripped and cut like a title.
const PROGRESS_MESSAGE_MAX = 1000;

/**
 * When the client asked for progress (a `progressToken` in the request's `_meta`), the upstream's
 * progress notifications for this call are relayed to it under the client's token; otherwise none
 * (a server must not send progress without a token).
 */
export function progressRelay(ctx: ServerContext): {
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
} {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return {};
  return {
    onProgress: ({ progress, total, message }) =>
      void ctx.mcpReq
        .notify({
          method: "notifications/progress",
          params: {
            progressToken,
            progress,
            ...(total !== undefined ? { total } : {}),
            ...(message !== undefined ? { message: stripInvisible(message).slice(0, PROGRESS_MESSAGE_MAX) } : {}),
          },
        })
        // The client went away mid-call: the call itself ends through its signal.
        .catch(() => undefined),
  };
}

// JSON-RPC codes of the upstream's own answer that mean the same through the proxy: the request
// named something that does not exist or was malformed (an unknown resource is -32602 since
// 2026-07-28, -32002 before), or needs a capability the client did not declare (2026-07-28: the
// client's capabilities reach the upstream, client-questions.ts). Any other upstream error stays an
// internal error of the proxy.
const RELAYED_RPC_CODES = new Set<number>([
  ProtocolErrorCode.InvalidParams,
  ProtocolErrorCode.MethodNotFound,
  -32002,
  ProtocolErrorCode.MissingRequiredClientCapability,
]);

/** The JSON-RPC code the upstream answered with, when the engine's error carries its answer. */
function upstreamRpcCode(error: unknown): number | null {
  if (!(error instanceof EngineError) || error.code !== "server_error") return null;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "number" && RELAYED_RPC_CODES.has(code) ? code : null;
}

/**
 * Run a handler and turn what it throws into a JSON-RPC error the client can show, never a crash:
 * a refusal of the gate (`tool.held`, `tool.denied`) is invalid params, like an unknown tool; an
 * upstream's invalid-params or not-found answer keeps its code (and the requested `uri`, for a
 * resource); any other failure is an internal error. The app's code is in `data.code`, with its
 * user-safe, redacted message (never the upstream's own `data`, which could carry anything).
 */
export async function guarded<T>(run: () => Promise<T>, about: { uri?: string } = {}): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const body = errorBody(error);
    const refused = error instanceof AppError && (error.code === "tool.held" || error.code === "tool.denied");
    const invalid = refused || (error instanceof EngineError && error.code === "not_found");
    const code = invalid ? ProtocolErrorCode.InvalidParams : (upstreamRpcCode(error) ?? ProtocolErrorCode.InternalError);
    throw new ProtocolError(code, body.message, { code: body.code, ...(about.uri !== undefined ? { uri: about.uri } : {}) });
  }
}
