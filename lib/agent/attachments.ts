/**
 * Resolving what a user attaches (resources) or runs (prompts) into stored data parts. The
 * request names only (server id, uri) or (server id, prompt, arguments); the content is read
 * here, on the server, from the user's own workspace servers.
 */
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import type { McpPool, ServerDefinition } from "../mcp";
import { AppError } from "../errors";
import { redact } from "../redact";
import type { PromptData, ResourceData } from "../domain/chat-message";
import { promptContentText } from "../domain/prompt-text";

export { promptContentText };

/** The pool calls attachments need. */
export type AttachmentPool = Pick<McpPool, "session">;

function serverOf(servers: ServerDefinition[], serverId: string): ServerDefinition {
  const server = servers.find((s) => s.id === serverId);
  if (!server) throw new AppError("server.not_found", "No such server.");
  return server;
}

/** The text of resource contents: text as is, binary named by type and size. */
export function contentsText(contents: ReadResourceResult["contents"]): string {
  return contents
    .map((c) =>
      "text" in c && typeof c.text === "string"
        ? c.text
        : `[binary ${c.mimeType ?? "data"}, ${Math.floor(((c as { blob?: string }).blob?.length ?? 0) * 0.75)} bytes]`,
    )
    .join("\n\n");
}

/** Read a resource and make it an attachment. */
export async function resolveResource(
  pool: AttachmentPool,
  userId: string,
  servers: ServerDefinition[],
  ref: { serverId: string; uri: string; name?: string },
  signal?: AbortSignal,
): Promise<ResourceData> {
  const server = serverOf(servers, ref.serverId);
  let result: ReadResourceResult;
  try {
    result = await pool.session(userId, server).readResource(ref.uri, { signal });
  } catch (error) {
    throw new AppError(
      "server.upstream",
      `Could not read ${ref.uri} from ${server.name}: ${redact(error instanceof Error ? error.message : String(error))}`,
    );
  }
  const first = result.contents[0];
  return {
    serverId: server.id,
    serverName: server.name,
    uri: ref.uri,
    name: ref.name,
    mimeType: first?.mimeType,
    text: contentsText(result.contents),
  };
}

/** Get a prompt's messages and make them a prompt part. */
export async function resolvePrompt(
  pool: AttachmentPool,
  userId: string,
  servers: ServerDefinition[],
  ref: { serverId: string; name: string; arguments: Record<string, string> },
  signal?: AbortSignal,
): Promise<PromptData> {
  const server = serverOf(servers, ref.serverId);
  let result: GetPromptResult;
  try {
    result = await pool.session(userId, server).getPrompt(ref.name, ref.arguments, { signal });
  } catch (error) {
    throw new AppError(
      "server.upstream",
      `Could not get prompt ${ref.name} from ${server.name}: ${redact(error instanceof Error ? error.message : String(error))}`,
    );
  }
  return {
    serverId: server.id,
    serverName: server.name,
    name: ref.name,
    arguments: ref.arguments,
    messages: result.messages.map((m) => ({ role: m.role, text: promptContentText(m.content) })),
  };
}
