import { z } from "zod";

/** Body of `POST /api/sampling/:id`: approve (optionally edited) or deny. */
export const reviewBody = z.discriminatedUnion("action", [
  z.object({ action: z.literal("approve"), text: z.string().max(200_000).optional() }).strict(),
  z.object({ action: z.literal("deny") }).strict(),
]);
