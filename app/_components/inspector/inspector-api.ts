/**
 * The inspector's calls to the app's API, over the one client (`apiRequest`), each in the page's
 * workspace (`ws`, `/api/w/<ws>/servers/…`). Response types are the server's own, imported as types only.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import type { handCallPolicies } from "@/lib/trust/hand-call-gate";
import type { LogLine } from "@/lib/runtime/connection-log";
import type { serverInfo } from "@/lib/use-cases/server-ops";
import { apiErrorOf, apiRequest, type WorkspaceSlug, workspaceApiPath } from "../api-client";

/** The inspector header's data. */
export type ServerInfoView = Awaited<ReturnType<typeof serverInfo>>;
/** A tool with its held state and hand-call policy. */
export type InspectorTool = Awaited<ReturnType<typeof handCallPolicies>>[number];
/** One log line. */
export type { LogLine };

const base = (ws: WorkspaceSlug, serverId: string) => workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}`);
const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

/** Status, capabilities, instructions, icons (never connects). */
export const getServerInfo = (ws: WorkspaceSlug, serverId: string) => apiRequest<ServerInfoView>(`${base(ws, serverId)}/info`);

/** Tools with policies (connects: the person opened the Tools tab). */
export async function listInspectorTools(ws: WorkspaceSlug, serverId: string): Promise<InspectorTool[]> {
  return (await apiRequest<{ tools: InspectorTool[] }>(`${base(ws, serverId)}/tools`)).tools;
}

/** A hand call's result with the duration the server measured (`Server-Timing`). */
export interface HandCallResult {
  result: CallToolResult & { errorCode?: string };
  durationMs: number | null;
}

/** Call a tool by its raw name through the same gate as the agent. */
export async function callTool(ws: WorkspaceSlug, serverId: string, name: string, args: Record<string, unknown>): Promise<HandCallResult> {
  const response = await fetch(`${base(ws, serverId)}/tools/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, arguments: args }),
  });
  const text = await response.text();
  if (!response.ok) throw apiErrorOf(response.status, text, `Call failed (${response.status}).`);
  const timing = /dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
  return { result: JSON.parse(text), durationMs: timing ? Number(timing[1]) : null };
}

/** resources/read. */
export const readResource = (ws: WorkspaceSlug, serverId: string, uri: string) =>
  apiRequest<ReadResourceResult>(`${base(ws, serverId)}/resources/read`, json("POST", { uri }));

/** Subscribe to / unsubscribe from a resource's updates. */
export const setSubscribed = (ws: WorkspaceSlug, serverId: string, uri: string, on: boolean) =>
  apiRequest(`${base(ws, serverId)}/resources/subscribe`, json(on ? "POST" : "DELETE", { uri }));

/** completion/complete for a template variable or a prompt argument. */
export async function complete(
  ws: WorkspaceSlug,
  serverId: string,
  ref: { type: "ref/resource"; uri: string } | { type: "ref/prompt"; name: string },
  name: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  const result = await apiRequest<{ completion?: { values?: string[] } }>(
    `${base(ws, serverId)}/complete`,
    json("POST", { ref, argument: { name, value }, context: { arguments: context } }),
  );
  return result.completion?.values ?? [];
}

/** prompts/get. */
export const getPrompt = (ws: WorkspaceSlug, serverId: string, name: string, args: Record<string, string>) =>
  apiRequest<GetPromptResult>(`${base(ws, serverId)}/prompts/get`, json("POST", { name, arguments: args }));

/** The server's log. */
export const getLogs = (ws: WorkspaceSlug, serverId: string) => apiRequest<LogLine[]>(`${base(ws, serverId)}/logs`);

/** logging/setLevel. */
export const setLogLevel = (ws: WorkspaceSlug, serverId: string, level: string) =>
  apiRequest(`${base(ws, serverId)}/logs/level`, json("PUT", { level }));
