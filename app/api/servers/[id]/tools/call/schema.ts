import { z } from "zod";

/** `POST /api/servers/:id/tools/call` body: the raw tool name and its arguments. */
export const toolCallBody = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }).strict();

/** A parsed tool-call body. */
export type ToolCallBody = z.infer<typeof toolCallBody>;
