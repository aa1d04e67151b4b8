import { z } from "zod";

/** `POST /api/servers/:id/prompts/get` body. */
export const getPromptBody = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.string()).default({}) }).strict();
