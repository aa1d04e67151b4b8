import { z } from "zod";

/** Body of `POST /api/elicitations/:id`: the user's answer to a server's question. */
export const answerBody = z
  .object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
  })
  .strict();
