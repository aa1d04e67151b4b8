import { z } from "zod";

/** `GET /api/servers/:id/status` query: `?connect=1` connects first if needed. */
export const statusQuery = z.object({ connect: z.enum(["0", "1"]).optional() });
