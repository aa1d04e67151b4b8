import { z } from "zod";

/** Body of `PUT /api/servers/:id/member-values`: the caller's own values for per-member keys. */
export const memberValuesBody = z.object({ values: z.record(z.string().max(200), z.string().max(8000)) }).strict();
