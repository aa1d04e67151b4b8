import { z } from "zod";

/** Body of `POST /api/oauth/start` and `POST /api/oauth/disconnect`. */
export const serverRefBody = z.object({ serverId: z.string().min(1).max(200) }).strict();
