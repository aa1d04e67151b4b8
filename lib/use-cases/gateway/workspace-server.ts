/**
 * The whole workspace as one MCP server (`/mcp/<workspace-slug>`, docs/gateway.md#the-workspace-endpoint):
 * the tools of every server the member may use under the names the chat registers
 * (`mcp_{server}_{tool}`, lib/mcp/naming.ts, named together so they are unique across servers),
 * prompts named the same way, resources under their own URIs, each request routed to the owning
 * server and run on the member's own connection through the use cases the per-server endpoint uses
 * (lib/use-cases/server-ops.ts): the same gate, approvals, quotas, audit and usage.
 */
import "server-only";
import { ProtocolError, ProtocolErrorCode, Server, type ServerCapabilities, UriTemplate } from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import { withServerInstructions } from "../../agent/server-instructions";
import type { RegisteredTool, ServerDefinition } from "../../mcp";
import { assignNames, baseToolName } from "../../mcp/naming";
import { appPool, workspaceServerDefinitions } from "../../runtime/engine";
import { secretValuesOf } from "../../redact";
import type { TrustActor } from "../../trust/permissions";
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
import { connectIfOwn, orConnect } from "./connect-elicitation";
import { approveThroughClient, clientNameOf, guarded, listedTools, logged, progressRelay } from "./proxy-server";
import { GatewayLog } from "./log-relay";
import { deliveredResult, labelledToolResult } from "./results";
import { relayListChanges } from "./list-changes";
import { SessionSources } from "./session-sources";

// Above the servers' own instructions, which the chat's wrapper marks as each server's text.
const INSTRUCTIONS_HEADER = "The tools, prompts and resources of this Switchboard workspace's MCP servers, named mcp_<server>_<name>.";

/**
 * Build the workspace's MCP server for `actor`, declaring what at least one of its servers declares.
 * `sessions`: it serves a 2025-era session, whose client is told when a server's lists change.
 */
export async function workspaceServer(actor: TrustActor, label: string, sessions = false): Promise<Server> {
  const pool = appPool();
  const servers = async () => await workspaceServerDefinitions(getDb(), actor);
  // Connect as a chat turn does: wait at most the turn's bound; a slow server joins later requests.
  const atStart = await servers();
  await pool.connectWithin(actor.id, atStart);
  const declares = (list: ServerDefinition[], key: string) =>
    list.filter((server) => (pool.session(actor.id, server).details()?.capabilities as Record<string, unknown> | undefined)?.[key]);
  // A session's client is told when any server's list changes (list-changes.ts); the names are the workspace's own.
  const changes = sessions ? { listChanged: true } : {};
  const capabilities: ServerCapabilities = {
    tools: changes,
    ...(declares(atStart, "resources").length ? { resources: changes } : {}),
    ...(declares(atStart, "prompts").length ? { prompts: changes } : {}),
    ...(declares(atStart, "completions").length ? { completions: {} } : {}),
    ...(declares(atStart, "logging").length ? { logging: {} } : {}),
  };
  const instructions = withServerInstructions(INSTRUCTIONS_HEADER, pool, actor.id, atStart);
  const server = new Server({ name: label, version: "1.0.0" }, { capabilities, instructions });
  // The log of each server that declares one, its entries' logger prefixed with the server's name (log-relay.ts).
  const logging = declares(atStart, "logging").map((definition) => ({ serverId: definition.id, prefix: definition.name }));
  const log = logging.length ? new GatewayLog(server, actor, logging, sessions) : null;
  // What this session has handed its client, by server: the lethal-trifecta rule's state.
  const sources = new SessionSources();
  // The servers of the workspace when the session opened; one added later is heard by a new session.
  if (sessions)
    relayListChanges(
      server,
      actor,
      atStart.map((definition) => definition.id),
    );

  /** What the client gets of `owner`'s content is sanitised, redacted of its secrets and labelled with its name (results.ts). */
  const contentOf = (owner: ServerDefinition) => ({ serverName: owner.name, secrets: secretValuesOf(owner.config) });

  /** The member's registered tools (the chat's toolset) over `definitions`, server tools only. */
  const registered = async (definitions: ServerDefinition[]) =>
    (await pool.toolset(actor.id, definitions)).filter((tool) => tool.kind === "tool");

  server.setRequestHandler("tools/list", async () =>
    guarded(async () => {
      const tools = await registered(await servers());
      const names = new Map(tools.map((tool) => [`${tool.serverId}\u0000${tool.rawName}`, tool.name]));
      const ids = [...new Set(tools.map((tool) => tool.serverId))];
      // Each server's gate (held, never); a server that fails here is left out, as from the chat.
      const gated = await Promise.allSettled(ids.map(async (id) => ({ id, tools: (await serverTools(actor, id)).tools })));
      return {
        tools: gated.flatMap((outcome) =>
          outcome.status === "fulfilled"
            ? listedTools(outcome.value.tools, (tool) => names.get(`${outcome.value.id}\u0000${tool.rawName}`))
            : [],
        ),
      };
    }),
  );
  server.setRequestHandler("tools/call", async (request, ctx) =>
    guarded(async () => {
      const { name, arguments: args = {} } = request.params;
      // The workspace's servers read once per call: the toolset, the owner by prefix and the result's label use them.
      const definitions = await servers();
      const tool: RegisteredTool | undefined = (await registered(definitions)).find((candidate) => candidate.name === name);
      if (!tool) {
        // A server waiting for the member's authorization has no tools in their toolset, but its
        // name's prefix still tells it: the call answers the Connect elicitation, not "unknown tool".
        // The longest matching prefix names the server ("mcp_a_b_x" is server "a_b"'s before "a"'s).
        const [owner] = definitions
          .filter((candidate) => name.startsWith(baseToolName(candidate.name, "")))
          .sort((a, b) => b.name.length - a.name.length);
        const waiting = owner && pool.session(actor.id, owner).status().state === "needs_authorization";
        const connect = waiting ? await connectIfOwn(server, ctx, actor, owner.id) : null;
        if (connect) return connect;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      // A server the member has not authorized is not in their toolset; one whose authorization lapsed
      // since (tokens revoked, a wider scope asked) answers the Connect elicitation (connect-elicitation.ts).
      // The server's questions during the call go to the client when it can answer (client-questions.ts).
      const owner = definitions.find((candidate) => candidate.id === tool.serverId);
      const labels = owner ? contentOf(owner) : { serverName: tool.serverName, secrets: [] };
      return await orConnect(server, ctx, actor, tool.serverId, () =>
        askingClient(
          server,
          ctx,
          async () => {
            const outcome = await sources.after({ serverId: tool.serverId, serverName: tool.serverName }, () =>
              logged(log, ctx, () =>
                callServerTool(actor, tool.serverId, { name: tool.rawName, arguments: args }, ctx.mcpReq.signal, {
                  admit: async (policy) => {
                    if (policy.action === "ask") {
                      await approveThroughClient(server, ctx, { actor, serverId: tool.serverId }, { name, args, reason: policy.reason });
                    }
                  },
                  origin: { via: "gateway", client: clientNameOf(server) },
                  contextSources: sources.list(),
                  ...progressRelay(ctx),
                }),
              ),
            );
            return labelledToolResult(outcome.content, labels);
          },
          { config: owner?.config ?? {}, secrets: labels.secrets },
        ),
      );
    }),
  );

  /** Every server's prompts under names made like the tools' (`mcp_{server}_{prompt}`), with their owner. */
  const prompts = async () => {
    const listed = await Promise.allSettled(
      declares(await servers(), "prompts").map(async (owner) => ({ owner, prompts: (await serverPrompts(actor, owner.id)).prompts })),
    );
    const entries = listed.flatMap((outcome) =>
      outcome.status === "fulfilled" ? outcome.value.prompts.map((prompt) => ({ owner: outcome.value.owner, prompt })) : [],
    );
    const requests = entries.map(({ owner, prompt }) => ({
      serverId: owner.id,
      serverName: owner.name,
      rawName: prompt.name,
      kind: "get_prompt" as const,
    }));
    const byRequest = new Map([...assignNames(requests)].map(([name, request]) => [request, name]));
    return entries.map((entry, index) => ({ ...entry, name: byRequest.get(requests[index]) as string }));
  };
  const promptNamed = async (name: string) => {
    const found = (await prompts()).find((entry) => entry.name === name);
    if (!found) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return found;
  };
  if (capabilities.prompts) {
    server.setRequestHandler("prompts/list", async () =>
      guarded(async () => ({ prompts: (await prompts()).map(({ prompt, name }) => ({ ...prompt, name })) })),
    );
    server.setRequestHandler("prompts/get", async (request, ctx) =>
      guarded(async () => {
        const { owner, prompt } = await promptNamed(request.params.name);
        return await orConnect(server, ctx, actor, owner.id, async () =>
          deliveredResult(
            await sources.after({ serverId: owner.id, serverName: owner.name }, () =>
              getServerPrompt(actor, owner.id, { name: prompt.name, arguments: request.params.arguments ?? {} }, ctx.mcpReq.signal),
            ),
            contentOf(owner),
          ),
        );
      }),
    );
  }
  if (capabilities.completions) {
    // A prompt argument completes at the prompt's server, a template's at the server that lists it.
    server.setRequestHandler("completion/complete", async (request) =>
      guarded(async () => {
        const { ref, argument, context } = request.params;
        if (ref.type === "ref/prompt") {
          const { owner, prompt } = await promptNamed(ref.name);
          return await completeServerArgument(actor, owner.id, { ref: { ...ref, name: prompt.name }, argument, context });
        }
        const owner = (await resourceOwners()).find((entry) => entry.templates.some((template) => template.uriTemplate === ref.uri));
        if (!owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`);
        return await completeServerArgument(actor, owner.owner.id, { ref, argument, context });
      }),
    );
  }

  /** Every server's resources and templates, with their owner, in the workspace's server order. */
  const resourceOwners = async () => {
    const listed = await Promise.allSettled(
      declares(await servers(), "resources").map(async (owner) => {
        const { resources, resourceTemplates } = await serverResources(actor, owner.id);
        return { owner, resources, templates: resourceTemplates };
      }),
    );
    return listed.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  };
  if (capabilities.resources) {
    server.setRequestHandler("resources/list", async () =>
      guarded(async () => ({ resources: (await resourceOwners()).flatMap((entry) => entry.resources) })),
    );
    server.setRequestHandler("resources/templates/list", async () =>
      guarded(async () => ({ resourceTemplates: (await resourceOwners()).flatMap((entry) => entry.templates) })),
    );
    server.setRequestHandler("resources/read", async (request, ctx) => {
      const { uri } = request.params;
      return guarded(
        async () => {
          // The server that lists the URI, else the first whose template matches it: URIs are kept as
          // the servers give them, so the owner is found by the URI itself.
          const owners = await resourceOwners();
          const owner =
            owners.find((entry) => entry.resources.some((resource) => resource.uri === uri)) ??
            owners.find((entry) => entry.templates.some((template) => matches(template.uriTemplate, uri)));
          if (!owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
          return await orConnect(server, ctx, actor, owner.owner.id, async () =>
            deliveredResult(
              await sources.after({ serverId: owner.owner.id, serverName: owner.owner.name }, () =>
                readServerResource(actor, owner.owner.id, uri, ctx.mcpReq.signal),
              ),
              contentOf(owner.owner),
            ),
          );
        },
        { uri },
      );
    });
  }
  return server;
}

/** Whether `uri` is one of the URIs `template` (RFC 6570) describes; a malformed template matches nothing. */
function matches(template: string, uri: string): boolean {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false;
  }
}
