import { z } from "zod";

/** `POST /api/servers/test` body: a config to try (and the saved server whose masked secrets it keeps). */
export const testBody = z
  .object({ name: z.string().max(48).optional(), config: z.record(z.string(), z.unknown()), serverId: z.string().min(1).optional() })
  .strict();
