/**
 * Request bodies of the per-server engine routes and the shared step "who is calling, which of
 * their servers": every route resolves the server inside the caller's workspace (404 otherwise).
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { requireUser, type SessionUser } from "../auth/session";
import { AppError } from "../errors";
import { idParam, readJson } from "../http";
import type { ServerDefinition } from "../mcp";
import { workspaceServerDefinition } from "./engine";

/** `POST /api/servers/:id/tools/call` body: the raw tool name and its arguments. */
export const toolCallBody = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }).strict();
/** `POST /api/servers/:id/resources/read` body. */
export const readResourceBody = z.object({ uri: z.string().min(1) }).strict();
/** `POST /api/servers/:id/prompts/get` body. */
export const getPromptBody = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.string()).default({}) }).strict();
/** `POST /api/servers/:id/complete` body (MCP completion/complete params). */
export const completeBody = z
  .object({
    ref: z.union([
      z.object({ type: z.literal("ref/prompt"), name: z.string().min(1) }),
      z.object({ type: z.literal("ref/resource"), uri: z.string().min(1) }),
    ]),
    argument: z.object({ name: z.string(), value: z.string() }),
    context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
  })
  .strict();

/** The signed-in user and one server of their workspace, from the `:id` route parameter. */
export async function callerAndServer(context: {
  params: Promise<{ id: string }>;
}): Promise<{ user: SessionUser; server: ServerDefinition }> {
  const user = await requireUser();
  return { user, server: workspaceServerDefinition(getDb(), user, await idParam(context)) };
}

/** Read and validate a JSON body; the first problem is a 400 naming its field. */
export async function parseBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJson(request));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || undefined;
  throw new AppError("request.invalid", field ? `${field}: ${issue.message}` : issue.message, field);
}
