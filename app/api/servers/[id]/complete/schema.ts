import { z } from "zod";

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
