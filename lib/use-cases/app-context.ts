/**
 * `ui/update-model-context` from an MCP App (docs/mcp-apps.md#model-context): the caller's own chat,
 * a call of that server in it, the text redacted and capped; kept until the chat's next user message.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { saveAppContext } from "../../db/queries/app-contexts";
import { recordAudit } from "../../db/queries/audit";
import { listMessagesByChat } from "../../db/queries/messages";
import { requireOwnChat } from "../agent/chat-service";
import type { ToolCallOutput } from "../domain/chat-message";
import { AppError } from "../errors";
import { workspaceServerDefinition } from "../runtime/engine";
import { redact } from "../redact";
import type { AppCaller } from "./app-resource";

/** Most characters of one app's context the model gets. */
export const MAX_APP_CONTEXT_CHARS = 20_000;

/** Body of `POST /api/apps/context`: the extension's content blocks and structured content. */
export const appContextSchema = z.object({
  chatId: z.string().min(1).max(100),
  toolCallId: z.string().min(1).max(200),
  serverId: z.string().min(1).max(100),
  content: z
    .array(z.object({ type: z.string(), text: z.string().optional() }).passthrough())
    .max(100)
    .default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});

/** Store an app's context for the model (replacing its previous one); returns what was kept. */
export async function updateAppContext(caller: AppCaller, body: z.infer<typeof appContextSchema>): Promise<{ chars: number }> {
  const db = getDb();
  await requireOwnChat(db, caller.id, body.chatId, caller.workspaceId);
  const server = await workspaceServerDefinition(db, caller, body.serverId);
  // The app speaks for its own call only: that call must be in this chat and come from this server.
  const ownCall = (await listMessagesByChat(db, body.chatId)).some((m) =>
    m.parts.some(
      (p) =>
        p.type === "dynamic-tool" &&
        p.toolCallId === body.toolCallId &&
        p.state === "output-available" &&
        (p.output as ToolCallOutput)?.serverId === server.id,
    ),
  );
  if (!ownCall) throw new AppError("app.not_found", "That tool call of this server is not in the chat.");
  const pieces = body.content.flatMap((c) => (c.type === "text" && c.text ? [c.text] : []));
  if (body.structuredContent) pieces.push(JSON.stringify(body.structuredContent));
  const text = redact(pieces.join("\n")).slice(0, MAX_APP_CONTEXT_CHARS);
  await saveAppContext(db, { chatId: body.chatId, toolCallId: body.toolCallId, serverId: server.id, serverName: server.name, text });
  await recordAudit(db, {
    actorId: caller.id,
    workspaceId: caller.workspaceId,
    action: "app.update_model_context",
    target: `server:${server.id}`,
    detail: { chatId: body.chatId, chars: text.length },
  });
  return { chars: text.length };
}
