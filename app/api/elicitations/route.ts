import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { elicitationBroker } from "@/lib/host/elicitations";

/** The caller's pending elicitation requests (form and URL mode). */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ elicitations: elicitationBroker().list(user.id) });
});
