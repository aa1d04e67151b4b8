/**
 * The browser half of what an MCP App asks (docs/mcp-apps.md#what-an-app-may-ask): the server decides
 * tool calls by the same policy as the agent's, and checks and audits links and messages; the user
 * confirms in the host's own prompt, never inside the app. Each asks in the page's workspace (`ws`).
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { AppCallOutcome } from "@/lib/use-cases/app-calls";
import { api, type WorkspaceSlug, workspaceApiPath } from "../api-client";
import type { AppQuestion } from "./app-prompt";

type Ask = (question: Omit<AppQuestion, "answer">) => Promise<boolean>;

const failed = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

/** A tool call from the app: run when the policy allows, ask the user when it says so, else refuse. */
export async function askAppTool(options: {
  ws: WorkspaceSlug;
  serverId: string;
  name: string;
  arguments: Record<string, unknown>;
  ask: Ask;
}): Promise<CallToolResult> {
  const call = (extra: { approved?: boolean; declined?: boolean } = {}) =>
    api<AppCallOutcome>(workspaceApiPath(options.ws, "apps/call"), {
      method: "POST",
      json: { serverId: options.serverId, name: options.name, arguments: options.arguments, ...extra },
    });
  try {
    let outcome = await call();
    if (outcome.status === "approval_required") {
      const ok = await options.ask({
        kind: "tool",
        title: `The app wants to call ${options.name}`,
        detail: JSON.stringify(options.arguments, null, 2),
        reason: outcome.reason,
      });
      outcome = await call(ok ? { approved: true } : { declined: true });
    }
    return outcome.status === "done" ? outcome.result : failed(outcome.reason);
  } catch (error) {
    return failed((error as Error).message);
  }
}

/** A link from the app: only http(s), opened in a new tab without a referrer after the user agrees. */
export async function confirmLink(options: {
  ws: WorkspaceSlug;
  serverId: string;
  serverName: string;
  url: string;
  ask: Ask;
}): Promise<boolean> {
  let parsed: URL | null = null;
  try {
    parsed = new URL(options.url);
  } catch {
    parsed = null;
  }
  const web = parsed && (parsed.protocol === "https:" || parsed.protocol === "http:");
  const confirmed = web
    ? await options.ask({
        kind: "link",
        title: `The app of ${options.serverName} wants to open a link`,
        detail: options.url,
        reason: `Host: ${parsed!.host}`,
      })
    : false;
  try {
    const answer = await api<{ url?: string }>(workspaceApiPath(options.ws, "apps/requests"), {
      method: "POST",
      json: { kind: "open_link", serverId: options.serverId, url: options.url, confirmed },
    });
    if (!answer.url) return false;
    window.open(answer.url, "_blank", "noopener,noreferrer");
    return true;
  } catch {
    // Refused by the server (not http/https): the app is told the link did not open.
    return false;
  }
}

/** A message from the app for the chat: shown to the user first; returns the (redacted) text to send, or null. */
export async function confirmMessage(options: {
  ws: WorkspaceSlug;
  serverId: string;
  serverName: string;
  text: string;
  ask: Ask;
  canSend: boolean;
}): Promise<string | null> {
  const confirmed =
    options.canSend && options.text.trim()
      ? await options.ask({ kind: "message", title: `The app of ${options.serverName} wants to send a message`, detail: options.text })
      : false;
  const answer = await api<{ text?: string }>(workspaceApiPath(options.ws, "apps/requests"), {
    method: "POST",
    json: { kind: "message", serverId: options.serverId, text: options.text.slice(0, 20_000), confirmed },
  });
  return answer.text ?? null;
}
