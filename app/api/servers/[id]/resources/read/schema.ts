import { z } from "zod";

/** `POST /api/servers/:id/resources/read` body. */
export const readResourceBody = z.object({ uri: z.string().min(1) }).strict();
