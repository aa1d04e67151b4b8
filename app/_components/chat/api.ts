/**
 * Browser-side calls to the app's JSON API for the chat: servers, statuses, resources, prompts,
 * completions and chats. Errors carry the server's `{message}`.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";

/** A server as listed by `GET /api/servers`. */
export interface ServerSummary {
  id: string;
  name: string;
  config: { enabled?: boolean };
}

/** A server's status as returned by `GET /api/mcp/status`. */
export interface ServerStatusView {
  serverId: string;
  serverName: string;
  state: string;
  lastError: { code: string; message: string } | null;
  counts: { tools: number; resources: number; resourceTemplates: number; prompts: number };
}

/** The message of an error body `{message}`, else the raw text. */
export function errorMessage(text: string, fallback = "Request failed."): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === "string" ? body.message : fallback;
  } catch {
    return text || fallback;
  }
}

/** fetch + JSON with the API's error message on failure. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) } });
  const text = await response.text();
  if (!response.ok) throw new Error(errorMessage(text, `${response.status} ${response.statusText}`));
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The user's servers. */
export async function listServers(): Promise<ServerSummary[]> {
  return (await fetchJson<{ servers: ServerSummary[] }>("/api/servers")).servers;
}

/** Every server's status (connects what is not connected yet). */
export async function listStatuses(): Promise<ServerStatusView[]> {
  return (await fetchJson<{ servers: ServerStatusView[] }>("/api/mcp/status")).servers;
}

/** One server's resources and templates. */
export function listResources(serverId: string) {
  return fetchJson<{ resources: Resource[]; resourceTemplates: ResourceTemplate[] }>(
    `/api/servers/${encodeURIComponent(serverId)}/resources`,
  );
}

/** One server's prompts. */
export async function listPrompts(serverId: string): Promise<Prompt[]> {
  return (await fetchJson<{ prompts: Prompt[] }>(`/api/servers/${encodeURIComponent(serverId)}/prompts`)).prompts;
}

/** completion/complete suggestions for a prompt argument (empty when the server offers none). */
export async function completePromptArgument(
  serverId: string,
  prompt: string,
  name: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  const result = await fetchJson<{ completion?: { values?: string[] } }>(`/api/servers/${encodeURIComponent(serverId)}/complete`, {
    method: "POST",
    body: JSON.stringify({ ref: { type: "ref/prompt", name: prompt }, argument: { name, value }, context: { arguments: context } }),
  });
  return result.completion?.values ?? [];
}
