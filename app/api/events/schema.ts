import { z } from "zod";

/** `GET /api/events` query: `?once=1` sends the `ready` event and ends (a check that the stream is allowed). */
export const eventsQuery = z.object({ once: z.enum(["1"]).optional() });
