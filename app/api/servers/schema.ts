import { z } from "zod";

/**
 * Body of `POST /api/servers` and `PATCH /api/servers/:id`: `{name, config, memberKeys?}`. The
 * config is checked key by key in lib/mcp/config.ts, whose errors name the server and the key.
 */
export const serverBody = z.record(z.string(), z.unknown());
