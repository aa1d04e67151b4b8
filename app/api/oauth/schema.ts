import { z } from "zod";

/** Body of `POST /api/oauth/start` and `POST /api/oauth/disconnect`. */
export const serverRefBody = z.object({ serverId: z.string().min(1).max(200) }).strict();

/** Body of `POST /api/oauth/start`: `forEveryone` is the Connect for everyone of a shared server (owners/admins). */
export const connectBody = z.object({ serverId: z.string().min(1).max(200), forEveryone: z.boolean().optional() }).strict();
