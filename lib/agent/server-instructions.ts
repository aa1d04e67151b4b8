/**
 * Server `instructions` (from initialize) for the model: each connected server's text as a
 * delimited block naming the server, stripped of invisible characters and capped. It is the
 * server's own description of how to use its tools, so it goes to the model as server text the
 * system prompt already tells it never to obey as orders (docs/workbench.md#server-instructions).
 */
import type { ServerDefinition, ServerSession } from "../mcp";
import { capText, wrapUntrustedBlock } from "../trust/untrusted-text";

/** Characters of one server's instructions passed on. */
export const MAX_INSTRUCTIONS_CHARS = 4000;

/** The system prompt with the connected servers' instructions appended, or unchanged when none have any. */
export function withServerInstructions(
  system: string,
  pool: { session(userId: string, server: ServerDefinition): Pick<ServerSession, "details"> },
  userId: string,
  servers: ServerDefinition[],
): string {
  const blocks = servers.flatMap((server) => {
    const text = pool.session(userId, server).details()?.instructions?.trim();
    if (!text) return [];
    return [wrapUntrustedBlock(server.name, "How this server describes its tools (server text):", capText(text, MAX_INSTRUCTIONS_CHARS))];
  });
  return blocks.length === 0 ? system : `${system}\n\n${blocks.join("\n\n")}`;
}
