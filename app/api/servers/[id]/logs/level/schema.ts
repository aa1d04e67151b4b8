import { z } from "zod";

/** `PUT /api/servers/:id/logs/level` body: the MCP logging level the server should send from. */
export const logLevelBody = z
  .object({ level: z.enum(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]) })
  .strict();
