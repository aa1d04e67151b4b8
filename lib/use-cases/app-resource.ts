/**
 * Reading an MCP App for the chat (docs/mcp-apps.md): the `ui://` resource must be linked by a tool
 * of that server in the caller's workspace and be `text/html;profile=mcp-app`; its declared CSP is
 * reduced to safe origins before it reaches the frame, loopback ones only for a server on loopback.
 */
import "server-only";
import { getDb } from "../../db/client";
import { AppError } from "../errors";
import { appPool, workspaceServerDefinition } from "../runtime/engine";
import { MCP_APP_MIME_TYPE } from "../mcp";
import { isLoopbackUrl } from "../net";
import { type AppCsp, sanitizeAppCsp } from "../apps/app-csp";
import { withLoopbackGrant } from "../apps/loopback-grant";

/** Largest app HTML served (a bundled single-file app is typically well under 1 MB). */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

/** What the frame needs to render an app. */
export interface AppResourceView {
  html: string;
  csp: AppCsp;
  prefersBorder: boolean;
}

/** Who is asking, in which workspace. */
export interface AppCaller {
  id: string;
  workspaceId: string;
}

function uiMeta(meta: unknown): { csp?: unknown; prefersBorder?: unknown } {
  const ui = meta && typeof meta === "object" ? (meta as Record<string, unknown>).ui : undefined;
  return ui && typeof ui === "object" ? (ui as { csp?: unknown; prefersBorder?: unknown }) : {};
}

/** The app HTML and its metadata, or a 404 (not an app of this server) / 502 (not a valid app). */
export async function readAppResource(caller: AppCaller, serverId: string, uri: string, signal?: AbortSignal): Promise<AppResourceView> {
  const pool = appPool();
  const server = await workspaceServerDefinition(getDb(), caller, serverId);
  // Only URIs a tool of this server links: the frame never becomes a viewer for arbitrary resources.
  const tools = await pool.toolset(caller.id, [server]);
  if (!tools.some((t) => t.serverId === server.id && t.ui?.resourceUri === uri)) {
    throw new AppError("app.not_found", "No tool of this server links that app.");
  }
  const result = await pool.session(caller.id, server).readResource(uri, { signal });
  const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!content || content.mimeType !== MCP_APP_MIME_TYPE) {
    throw new AppError("app.invalid", `The server's app is not ${MCP_APP_MIME_TYPE}.`);
  }
  const html = "text" in content ? content.text : Buffer.from(content.blob, "base64").toString("utf8");
  if (Buffer.byteLength(html) > MAX_APP_HTML_BYTES) throw new AppError("app.invalid", "The server's app is larger than 5 MB.");
  const meta = uiMeta(content._meta);
  // Only a server on this machine may give its app the machine's own services (its app is as local as it is).
  const url = server.config.url;
  const csp =
    url && isLoopbackUrl(new URL(url))
      ? withLoopbackGrant(sanitizeAppCsp(meta.csp, { loopback: true }), caller.id)
      : sanitizeAppCsp(meta.csp);
  return { html, csp, prefersBorder: meta.prefersBorder !== false };
}
