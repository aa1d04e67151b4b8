import { z } from "zod";

/** `GET /api/servers/:id/icon` query: which of the server's icons (`?i=0` default). */
export const iconQuery = z.object({ i: z.coerce.number().int().min(0).max(20).default(0) });
