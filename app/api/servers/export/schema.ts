import { z } from "zod";

/** `GET /api/servers/export` query: `?format=yaml` (default) or `json`. */
export const exportQuery = z.object({ format: z.enum(["yaml", "json"]).default("yaml") });
