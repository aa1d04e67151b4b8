import { z } from "zod";

/** `GET /api/mcp/status` query: `?connect=1` connects what is not connected yet. */
export const workspaceStatusQuery = z.object({ connect: z.enum(["0", "1"]).optional() });
