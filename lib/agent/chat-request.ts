/**
 * The body of `POST /api/chat`: a new user message, or answers to pending tool approvals. The
 * client never sends history, tools or tool results — the server owns those.
 */
import { z } from "zod";

const id = z.string().min(1).max(200);

/** A new user turn: text plus optional attached resources and a prompt run as a slash command. */
export const userTurnSchema = z.object({
  text: z.string().max(100_000).default(""),
  resources: z
    .array(z.object({ serverId: id, uri: z.string().min(1).max(4000), name: z.string().max(500).optional() }))
    .max(20)
    .default([]),
  prompt: z
    .object({
      serverId: id,
      name: z.string().min(1).max(500),
      arguments: z.record(z.string(), z.string().max(10_000)).default({}),
      /** The rendered messages as the user edited them in the preview; absent = send them as the server renders them. */
      messages: z
        .array(z.object({ role: z.enum(["user", "assistant"]), text: z.string().max(100_000) }))
        .max(50)
        .optional(),
    })
    .optional(),
});

/** The whole request body. */
export const chatRequestSchema = z
  .object({
    chatId: id,
    message: userTurnSchema.optional(),
    /** With `message`: it replaces the chat's last user message and everything after it (edit and resend). */
    replaceLast: z.boolean().optional(),
    /** Answer the last user message again, dropping the answer after it (retry). */
    regenerate: z.literal(true).optional(),
    approvals: z
      .array(z.object({ approvalId: id, approved: z.boolean(), input: z.record(z.string(), z.unknown()).optional() }))
      .max(50)
      .optional(),
  })
  .refine((body) => (body.message ? 1 : 0) + (body.approvals?.length ? 1 : 0) + (body.regenerate ? 1 : 0) === 1, {
    message: "Send either a message, approval answers or a retry.",
  })
  .refine((body) => !body.message || body.message.text.trim() || body.message.resources.length || body.message.prompt, {
    message: "The message is empty.",
  });

/** A parsed request. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** A parsed user turn. */
export type UserTurn = z.infer<typeof userTurnSchema>;
