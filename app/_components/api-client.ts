/**
 * The browser's one client for the app's JSON API. Every call goes through `apiRequest`, which sends
 * JSON and throws an `ApiError` carrying the response's `{code, message, field?}` (docs/errors.md):
 * components decide on `code` and `field` and show `message`. Workspace-scoped calls take the page's
 * workspace (`ws`, its URL slug from `useWorkspaceSlug`) and name it in the path (`/api/w/<ws>/…`).
 * Response types are the server's own, imported with `import type` so no server code reaches the bundle.
 */
import type { GetPromptResult, Prompt, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import type { chatView } from "@/lib/agent/chat-service";
import type { modelSettingsView } from "@/lib/models/settings-service";
import type { listToolPolicyRows } from "@/lib/trust/tool-policy-service";
import type { ErrorCode } from "@/lib/errors";
import type { PendingElicitationView } from "@/lib/runtime/elicitations";
import type { WithdrawnQuestion } from "@/lib/runtime/question-notices";
import type { SamplingReviewAnswer, SamplingReviewView } from "@/lib/runtime/sampling";
import type { RegisteredTool, ServerStatus } from "@/lib/mcp/types";
import type { BeginResult } from "@/lib/oauth/web/flow";
import type { serverView } from "@/lib/servers/service";
import { reportAccessLoss } from "./access/access-events";
import { requestReauth } from "./reauth/reauth-events";

// The requests already retried after a re-authentication: a second refusal is the answer.
const retried = new WeakSet<object>();

/** A server as `GET /api/servers` lists it (masked config, the stdio launch line). */
export type ServerView = ReturnType<typeof serverView>;

/** A server as the chat's pickers use it. */
export type ServerSummary = Pick<ServerView, "id" | "name" | "config">;

/** A server's status as `GET /api/mcp/status` returns it. */
export type ServerStatusView = ServerStatus;

/** A chat in lists. */
export type ChatView = ReturnType<typeof chatView>;

/** The model settings as the browser sees them (the key masked). */
export type ModelSettingsView = Awaited<ReturnType<typeof modelSettingsView>>;

/** Every tool with its approval policy, and the servers that could not be asked. */
export type ToolPolicyList = Awaited<ReturnType<typeof listToolPolicyRows>>;

/** One row of the tool approval table. */
export type ToolPolicyRow = ToolPolicyList["tools"][number];

/** What servers are waiting on the user for, and what was withdrawn because the connection that asked is gone. */
export interface PendingView {
  elicitations: PendingElicitationView[];
  sampling: SamplingReviewView[];
  withdrawn: WithdrawnQuestion[];
}

/** A failed API call: the response's code (null when the body was not an API error), message and field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly field?: string;
  constructor(status: number, code: ErrorCode | null, message: string, field?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The ApiError for a failed response body; `fallback` is the message when the body has none. */
export function apiErrorOf(status: number, text: string, fallback: string): ApiError {
  let body: { code?: unknown; message?: unknown; field?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(status, null, text || fallback);
  }
  const message = typeof body?.message === "string" ? body.message : fallback;
  const code = typeof body?.code === "string" ? (body.code as ErrorCode) : null;
  return new ApiError(status, code, message, typeof body?.field === "string" ? body.field : undefined);
}

/** The message of an error body `{message}`, else the raw text. */
export function errorMessage(text: string, fallback = "Request failed."): string {
  return apiErrorOf(0, text, fallback).message;
}

/**
 * fetch + JSON: the parsed body, or an ApiError. `fallback(status, statusText)` names the failure
 * when the server's answer carries no message.
 */
export async function apiRequest<T>(
  url: string,
  init?: RequestInit,
  fallback: (status: number, statusText: string) => string = (status, statusText) => `${status} ${statusText}`,
): Promise<T> {
  const response = await fetch(url, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) } });
  const text = await response.text();
  if (!response.ok) {
    const error = apiErrorOf(response.status, text, fallback(response.status, response.statusText));
    // A sensitive act after an old sign-in: the page's prompt asks for the password or a code, then
    // the act is sent once more (its body is a string, so it can be).
    if (error.code === "auth.reauth_required" && init && !retried.has(init) && (await requestReauth(error.message))) {
      retried.add(init);
      return apiRequest<T>(url, init, fallback);
    }
    // Lost access is explained by the page's notice, whichever screen made the call.
    reportAccessLoss(error.code, error.message);
    throw error;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** `apiRequest` with a `json` body option: the workspace, admin and account screens' shorthand. */
export function api<T>(url: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json: body, ...rest } = init ?? {};
  return apiRequest<T>(url, body === undefined ? rest : { ...rest, body: JSON.stringify(body) }, (status) => `Request failed (${status}).`);
}

/** A workspace's URL slug (`personal` for the caller's own), as `useWorkspaceSlug` gives it. */
export type WorkspaceSlug = string;

/** The URL of workspace-scoped API route `route` (`servers/…`, no leading slash) in workspace `ws`. */
export function workspaceApiPath(ws: WorkspaceSlug, route: string): string {
  return `/api/w/${encodeURIComponent(ws)}/${route}`;
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
const serverPath = (ws: WorkspaceSlug, serverId: string) => workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}`);

/** The servers of workspace `ws`. */
export async function listServers(ws: WorkspaceSlug): Promise<ServerView[]> {
  return (await apiRequest<{ servers: ServerView[] }>(workspaceApiPath(ws, "servers"))).servers;
}

/** Add a server (`serverId` absent) or change one. */
export function saveServer(ws: WorkspaceSlug, serverId: string | undefined, body: { name: string; config: unknown }): Promise<ServerView> {
  const url = serverId ? serverPath(ws, serverId) : workspaceApiPath(ws, "servers");
  return apiRequest<ServerView>(url, json(serverId ? "PATCH" : "POST", body), (status) => {
    return `Saving failed (${status}).`;
  });
}

/** Delete a server. */
export async function deleteServer(ws: WorkspaceSlug, serverId: string): Promise<void> {
  await apiRequest<void>(serverPath(ws, serverId), { method: "DELETE" }, () => "Delete failed.");
}

/** One server's status for the user; `connect` connects it first. */
export function serverStatus(ws: WorkspaceSlug, serverId: string, connect: boolean): Promise<ServerStatus> {
  return apiRequest<ServerStatus>(`${serverPath(ws, serverId)}/status${connect ? "?connect=1" : ""}`, undefined, (status) => {
    return `Status failed (${status}).`;
  });
}

/** Drop the user's connection to a server and connect again. */
export function reconnectServer(ws: WorkspaceSlug, serverId: string): Promise<ServerStatus> {
  return apiRequest<ServerStatus>(`${serverPath(ws, serverId)}/reconnect`, { method: "POST" });
}

/** A server's registered tools. */
export async function listServerTools(ws: WorkspaceSlug, serverId: string): Promise<RegisteredTool[]> {
  return (await apiRequest<{ tools: RegisteredTool[] }>(`${serverPath(ws, serverId)}/tools`)).tools;
}

/** Every server's status (connects what is not connected yet). */
export async function listStatuses(ws: WorkspaceSlug): Promise<ServerStatusView[]> {
  return (await apiRequest<{ servers: ServerStatusView[] }>(workspaceApiPath(ws, "mcp/status"))).servers;
}

/** One server's resources and templates. */
export function listResources(ws: WorkspaceSlug, serverId: string) {
  return apiRequest<{ resources: Resource[]; resourceTemplates: ResourceTemplate[] }>(`${serverPath(ws, serverId)}/resources`);
}

/** One server's prompts. */
export async function listPrompts(ws: WorkspaceSlug, serverId: string): Promise<Prompt[]> {
  return (await apiRequest<{ prompts: Prompt[] }>(`${serverPath(ws, serverId)}/prompts`)).prompts;
}

/** What a completion is for: a prompt (by name) or a resource template (by its URI template). */
type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** completion/complete suggestions for one argument (empty when the server offers none). */
async function completeArgument(
  ws: WorkspaceSlug,
  serverId: string,
  ref: CompletionRef,
  name: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  const result = await apiRequest<{ completion?: { values?: string[] } }>(
    `${serverPath(ws, serverId)}/complete`,
    json("POST", { ref, argument: { name, value }, context: { arguments: context } }),
  );
  return result.completion?.values ?? [];
}

/** completion/complete suggestions for a prompt argument (empty when the server offers none). */
export function completePromptArgument(
  ws: WorkspaceSlug,
  serverId: string,
  prompt: string,
  name: string,
  value: string,
  context: Record<string, string>,
) {
  return completeArgument(ws, serverId, { type: "ref/prompt", name: prompt }, name, value, context);
}

/** Start OAuth for a server: a URL to open, or already authorized. */
export function startOAuth(ws: WorkspaceSlug, serverId: string, options: { forEveryone?: boolean } = {}): Promise<BeginResult> {
  return apiRequest<BeginResult>(
    workspaceApiPath(ws, "oauth/start"),
    json("POST", options.forEveryone ? { serverId, forEveryone: true } : { serverId }),
    (status) => `Request failed (${status}).`,
  );
}

/** Forget the user's OAuth tokens for a server (revoked where supported). */
export function disconnectOAuth(ws: WorkspaceSlug, serverId: string): Promise<{ revoked: boolean; status: ServerStatus }> {
  return apiRequest(workspaceApiPath(ws, "oauth/disconnect"), json("POST", { serverId }), (status) => `Request failed (${status}).`);
}

/** Start a chat. */
export function createChat(ws: WorkspaceSlug): Promise<ChatView> {
  return apiRequest<ChatView>(workspaceApiPath(ws, "chats"), { method: "POST", body: "{}" });
}

/** Rename a chat. */
export function renameChat(ws: WorkspaceSlug, chatId: string, title: string): Promise<ChatView> {
  return apiRequest<ChatView>(workspaceApiPath(ws, `chats/${encodeURIComponent(chatId)}`), json("PATCH", { title }));
}

/** Delete a chat with its messages. */
export async function deleteChat(ws: WorkspaceSlug, chatId: string): Promise<void> {
  await apiRequest<void>(workspaceApiPath(ws, `chats/${encodeURIComponent(chatId)}`), { method: "DELETE" });
}

/** The user's model settings, with the model that wins in workspace `ws`. */
export function getModelSettings(ws: WorkspaceSlug): Promise<ModelSettingsView> {
  return apiRequest<ModelSettingsView>(workspaceApiPath(ws, "settings/model"));
}

/** Change the user's model settings; answers the new view in workspace `ws`. */
export function saveModelSettings(ws: WorkspaceSlug, body: Record<string, unknown>): Promise<ModelSettingsView> {
  return apiRequest<ModelSettingsView>(workspaceApiPath(ws, "settings/model"), json("PUT", body));
}

/** Every tool with its approval policy. */
export function listToolPolicies(ws: WorkspaceSlug): Promise<ToolPolicyList> {
  return apiRequest<ToolPolicyList>(workspaceApiPath(ws, "settings/tool-policies"));
}

/** Set one tool's policy (`null`: back to the default). */
export async function setToolPolicy(
  ws: WorkspaceSlug,
  row: Pick<ToolPolicyRow, "serverId" | "toolName">,
  policy: string | null,
): Promise<void> {
  await apiRequest<void>(
    workspaceApiPath(ws, "settings/tool-policies"),
    json("PUT", { serverId: row.serverId, toolName: row.toolName, policy }),
  );
}

/** What servers are waiting on the user for. */
export function listPending(): Promise<PendingView> {
  return apiRequest<PendingView>("/api/pending");
}

/** Answer an elicitation. */
export async function answerElicitation(id: string, body: Record<string, unknown>): Promise<void> {
  await apiRequest<void>(`/api/elicitations/${encodeURIComponent(id)}`, json("POST", body));
}

/** Approve or deny a sampling review. */
export async function answerSamplingReview(id: string, body: SamplingReviewAnswer): Promise<void> {
  await apiRequest<void>(`/api/sampling/${encodeURIComponent(id)}`, json("POST", body));
}

/** Sign up. */
export function registerAccount(body: { name: string; email: string; password: string; setupCode?: string }): Promise<unknown> {
  return apiRequest("/api/auth/register", json("POST", body), (status) => `Registration failed (${status}).`);
}

/** A prompt rendered with its arguments (the preview before it is sent). */
export function getPrompt(ws: WorkspaceSlug, serverId: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
  return apiRequest<GetPromptResult>(`${serverPath(ws, serverId)}/prompts/get`, json("POST", { name, arguments: args }));
}

/** completion/complete suggestions for a resource template variable (empty when the server offers none). */
export function completeResourceArgument(
  ws: WorkspaceSlug,
  serverId: string,
  uriTemplate: string,
  name: string,
  value: string,
  context: Record<string, string>,
) {
  return completeArgument(ws, serverId, { type: "ref/resource", uri: uriTemplate }, name, value, context);
}
