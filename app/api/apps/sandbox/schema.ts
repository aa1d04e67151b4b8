import { z } from "zod";

/** `GET /api/apps/sandbox?csp=<JSON>`: the app's declared CSP metadata (reduced to safe origins). */
export const sandboxQuery = z.object({ csp: z.string().max(20_000).default("{}") });
