import { z } from "zod";

/** `POST|DELETE /api/servers/:id/resources/subscribe` body: the resource URI. */
export const subscribeBody = z.object({ uri: z.string().min(1).max(2000) }).strict();
