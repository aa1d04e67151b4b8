/**
 * The per-server engine operations behind `/api/servers/:id/…`: each resolves the server inside
 * the caller's workspace (404 otherwise) as the caller's own definition, then asks the pool.
 */
import "server-only";
import type { CompleteRequest } from "@modelcontextprotocol/client";
import { getDb } from "../../db/client";
import type { ServerDefinition, ServerLogEntry } from "../mcp";
import type { TrustActor } from "../trust/permissions";
import type { ContentSource } from "../trust/policy";
import { capText } from "../trust/untrusted-text";
import { appPool, workspaceServerDefinition, workspaceServerDefinitions } from "../runtime/engine";
import { enforceReconnectRate } from "../quotas";
import { secretValuesOf } from "../redact";
import { tracedToolCall } from "../telemetry/mcp-call";
import { auditHandCall, gateHandCall, type HandCallPolicy, handCallPolicies } from "../trust/hand-call-gate";
import { recordRefusedCall } from "../usage/record";

/** Who is calling, in which workspace (what `requireWorkspace` returns). */
export interface Caller {
  id: string;
  workspaceId: string;
}

async function definition(caller: Caller, serverId: string): Promise<ServerDefinition> {
  return await workspaceServerDefinition(getDb(), caller, serverId);
}

/**
 * The server's registered tools (connects if needed), each with `held: null | "new" | "changed"` and
 * the `policy` a hand call meets (`held`, `never`, `ask` with its reason, or `allow`).
 */
export async function serverTools(caller: TrustActor, serverId: string) {
  return { tools: await handCallPolicies(getDb(), appPool(), caller, await definition(caller, serverId)) };
}

/**
 * What the inspector's header shows, without connecting: the status (name, version, protocol),
 * the negotiated capabilities and instructions (null until connected; instructions stripped of
 * invisible characters), and icon links to the app's own icon route in the workspace `slug` names
 * (`/api/w/<slug>/servers/:id/icon`), so the browser never fetches a server's URL.
 */
export async function serverInfo(caller: Caller, serverId: string, slug: string) {
  const pool = appPool();
  const server = await definition(caller, serverId);
  const status = pool.session(caller.id, server).status();
  const details = pool.session(caller.id, server).details();
  // Every icon is served from the app's origin (lib/use-cases/server-icons.ts), never from the server's URL.
  const icons = (status.serverInfo?.icons ?? []).flatMap((icon, index) =>
    SAFE_ICON.test(icon.src) || /^https?:\/\//.test(icon.src)
      ? [{ src: `/api/w/${encodeURIComponent(slug)}/servers/${encodeURIComponent(serverId)}/icon?i=${index}`, mimeType: icon.mimeType }]
      : [],
  );
  return {
    status,
    capabilities: details?.capabilities ?? null,
    instructions: details?.instructions ? capText(details.instructions, 8000) : null,
    icons,
  };
}

// data: icons of a raster type; the icon route checks the bytes again (an SVG can carry script).
const SAFE_ICON = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

/** What a caller other than the inspector adds to a hand call (the MCP gateway, lib/use-cases/gateway/). */
export interface HandCallOptions {
  /**
   * Runs after the gate and before the call: may refuse the call by throwing (the gateway refuses
   * an `ask` tool it cannot get approved), which is recorded as a refused call like the gate's own.
   */
  admit?: (policy: HandCallPolicy) => void | Promise<void>;
  /** Where the call came from, for the audit entry (`via`, and the MCP client's name when known). */
  origin?: { via: "gateway"; client: string | null };
  /** The server's progress notifications for this call (the gateway relays them to its client). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The servers whose content the caller's context holds, for the lethal-trifecta rule (a gateway session's). */
  contextSources?: readonly ContentSource[];
}

/**
 * Call a tool by its raw name, by hand: through the agent's gate (held and "never" tools refused,
 * lib/trust/hand-call-gate.ts) and audited. Tool failures are `isError` results, not throws.
 */
export async function callServerTool(
  caller: TrustActor,
  serverId: string,
  body: { name: string; arguments: Record<string, unknown> },
  signal: AbortSignal,
  options: HandCallOptions = {},
) {
  const server = await definition(caller, serverId);
  const pool = appPool();
  const policy = await (async () => {
    const decided = await gateHandCall(getDb(), pool, caller, server, body.name, options.contextSources);
    await options.admit?.(decided);
    return decided;
  })().catch(async (error: unknown) => {
    await recordRefusedCall(getDb(), { userId: caller.id, workspaceId: caller.workspaceId, server, name: body.name });
    throw error;
  });
  const outcome = await tracedToolCall(
    {
      toolName: body.name,
      transport: server.config.url ? "http" : "stdio",
      arguments: body.arguments,
      secrets: () => secretValuesOf(server.config),
    },
    () =>
      pool
        .session(caller.id, server)
        .callTool(body.name, body.arguments, { signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
  );
  await auditHandCall(getDb(), caller, server, body.name, policy, outcome, options.origin);
  return { ...outcome, policy };
}

/** Resources and resource templates. */
export async function serverResources(caller: Caller, serverId: string) {
  const pool = appPool();
  const server = await definition(caller, serverId);
  // A page waits on this: at most the turn bound, then "still connecting".
  await pool.session(caller.id, server).requireConnectedWithin();
  const [resources, resourceTemplates] = await Promise.all([
    pool.session(caller.id, server).listResources(),
    pool.session(caller.id, server).listResourceTemplates(),
  ]);
  return { resources, resourceTemplates };
}

/** resources/read. */
export async function readServerResource(caller: Caller, serverId: string, uri: string, signal: AbortSignal) {
  return appPool()
    .session(caller.id, await definition(caller, serverId))
    .readResource(uri, { signal });
}

/**
 * resources/subscribe on the caller's connection: `onUpdated` runs for each update of `uri`. The
 * returned function unsubscribes; until then the connection stays open (a subscription holds it).
 */
export async function subscribeServerResource(
  caller: Caller,
  serverId: string,
  uri: string,
  onUpdated: (uri: string) => void,
): Promise<() => Promise<void>> {
  return await appPool()
    .session(caller.id, await definition(caller, serverId))
    .subscribeResource(uri, onUpdated);
}

/**
 * Hear each list (`tools`, `resources`, `prompts`) the caller's connection to the server announces
 * as changed, once the engine re-listed it (the gateway relays it to its client). The returned
 * function stops listening; it holds no connection open.
 */
export async function watchServerListChanges(
  caller: Caller,
  serverId: string,
  onChanged: (kind: "tools" | "resources" | "prompts") => void,
): Promise<() => void> {
  return appPool()
    .session(caller.id, await definition(caller, serverId))
    .watchListChanges(onChanged);
}

/**
 * Hear each entry the caller's connection to the server logs, redacted as the server log keeps it
 * (the gateway relays it to its client). The returned function stops listening; it holds no
 * connection open.
 */
export async function watchServerLog(caller: Caller, serverId: string, onEntry: (entry: ServerLogEntry) => void): Promise<() => void> {
  return appPool()
    .session(caller.id, await definition(caller, serverId))
    .watchLog(onEntry);
}

/** The server's prompts. */
export async function serverPrompts(caller: Caller, serverId: string) {
  const pool = appPool();
  const server = await definition(caller, serverId);
  await pool.session(caller.id, server).requireConnectedWithin();
  return { prompts: await pool.session(caller.id, server).listPrompts() };
}

/** prompts/get. */
export async function getServerPrompt(
  caller: Caller,
  serverId: string,
  body: { name: string; arguments: Record<string, string> },
  signal: AbortSignal,
) {
  return appPool()
    .session(caller.id, await definition(caller, serverId))
    .getPrompt(body.name, body.arguments, { signal });
}

/** completion/complete. */
export async function completeServerArgument(
  caller: Caller,
  serverId: string,
  body: Pick<CompleteRequest["params"], "ref" | "argument" | "context">,
) {
  return appPool()
    .session(caller.id, await definition(caller, serverId))
    .complete(body.ref, body.argument, body.context);
}

/** The caller's connection status; `connect` connects first if needed. */
export async function serverStatus(caller: Caller, serverId: string, connect: boolean) {
  const pool = appPool();
  const server = await definition(caller, serverId);
  if (connect) await pool.discover(caller.id, [server]);
  return pool.session(caller.id, server).status();
}

/** Close and connect again now (within the caller's reconnect quota for this server). */
export async function reconnectServer(caller: Caller, serverId: string) {
  const server = await definition(caller, serverId);
  await enforceReconnectRate(caller.id, server.id);
  return appPool().session(caller.id, server).reconnect();
}

/**
 * Every server's status for the caller; `connect` connects what is not connected yet. Without it
 * nothing starts: opening a page must not launch a server (saving or using one does).
 */
export async function workspaceStatus(caller: Caller, connect = false) {
  const pool = appPool();
  const servers = await workspaceServerDefinitions(getDb(), caller);
  if (connect) return { servers: await pool.discover(caller.id, servers) };
  return { servers: servers.map((server) => pool.session(caller.id, server).status()) };
}

/** Re-read the caller's server configs and reconnect only what changed. */
export async function reloadWorkspace(caller: Caller) {
  const servers = await workspaceServerDefinitions(getDb(), caller);
  const pool = appPool();
  await pool.reload(caller.id, servers);
  return { servers: servers.map((server) => pool.session(caller.id, server).status()) };
}
