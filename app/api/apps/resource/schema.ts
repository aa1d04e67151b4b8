import { z } from "zod";

/** `GET /api/apps/resource?serverId=…&uri=ui://…`. */
export const appResourceQuery = z.object({
  serverId: z.string().min(1).max(100),
  uri: z.string().startsWith("ui://").max(2048),
});
