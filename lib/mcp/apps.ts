/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, docs/mcp-apps.md): what the client declares,
 * and the UI link a tool carries in `_meta.ui.resourceUri`. Data only; the host renders the app.
 */

/** The extension's id in `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of an app's HTML resource. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/** What the client declares: it renders `text/html;profile=mcp-app` resources. */
export const MCP_APPS_CAPABILITY = { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } };

/** Who may call a tool: the model, the app, or both (the default). */
export type ToolVisibility = "model" | "app";

/** A tool's link to its app. */
export interface ToolUi {
  resourceUri: string;
  visibility?: ToolVisibility[];
}

/**
 * The app link of a listed tool, or undefined. Reads `_meta.ui.resourceUri` and the older flat
 * `_meta["ui/resourceUri"]`; anything but a `ui://` URI is ignored (the extension allows only those).
 */
export function toolUiOf(tool: { _meta?: Record<string, unknown> }): ToolUi | undefined {
  const meta = tool._meta;
  if (!meta || typeof meta !== "object") return undefined;
  const ui = meta.ui && typeof meta.ui === "object" ? (meta.ui as Record<string, unknown>) : {};
  const uri = typeof ui.resourceUri === "string" ? ui.resourceUri : meta["ui/resourceUri"];
  if (typeof uri !== "string" || !uri.startsWith("ui://") || uri.length > 2048) return undefined;
  const visibility = Array.isArray(ui.visibility)
    ? ui.visibility.filter((v): v is ToolVisibility => v === "model" || v === "app")
    : undefined;
  return visibility?.length ? { resourceUri: uri, visibility } : { resourceUri: uri };
}

/** Whether the model may be offered a tool: all tools but those an app declared for itself only. */
export function visibleToModel(tool: { ui?: ToolUi }): boolean {
  return !tool.ui?.visibility || tool.ui.visibility.includes("model");
}
