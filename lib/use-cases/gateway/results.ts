/**
 * What a gateway client gets of a server's content (docs/gateway.md#results): a tool's result, a
 * resource's contents and a prompt's messages pass through the gate the chat's model gets them
 * through (lib/trust/untrusted-text.ts) — every string stripped of invisible and control characters,
 * the server config's secrets and anything credential-like redacted (lib/redact.ts) — and labelled
 * as untrusted data from the server as configured in Switchboard.
 *
 * The label is in the result's `_meta` (SOURCE_META_KEY) on both endpoints. The workspace endpoint,
 * whose client's model sees the servers' content side by side under the chat's names, also puts it
 * in front of a tool result's content as a text block, as the chat's model gets it; the per-server
 * endpoint is a faithful proxy of one server and leaves the content's blocks as they are.
 */
import "server-only";
import { redactJson } from "../../redact";
import { sanitizeJson, sourceLabel } from "../../trust/untrusted-text";

/** The `_meta` key of the label (a client may show it; the content itself is unchanged by it). */
export const SOURCE_META_KEY = "switchboard/source";

/** The server whose content it is: its name as configured, and its config's secret values. */
export interface ContentSource {
  serverName: string;
  secrets: string[];
}

/** `result` sanitised, redacted and labelled in its `_meta`. */
export function deliveredResult<T extends { _meta?: Record<string, unknown> }>(result: T, source: ContentSource): T {
  const clean = sanitizeJson(redactJson(result, source.secrets));
  return { ...clean, _meta: { ...clean._meta, [SOURCE_META_KEY]: sourceLabel(source.serverName) } };
}

/** A tool's result for the workspace endpoint: delivered, with the label as its first content block. */
export function labelledToolResult<T extends { content?: unknown[]; _meta?: Record<string, unknown> }>(
  result: T,
  source: ContentSource,
): T {
  const delivered = deliveredResult(result, source);
  if (!Array.isArray(delivered.content)) return delivered;
  return { ...delivered, content: [{ type: "text", text: `[${sourceLabel(source.serverName)}]` }, ...delivered.content] };
}
