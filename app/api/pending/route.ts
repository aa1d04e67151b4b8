import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { elicitationBroker } from "@/lib/host/elicitations";
import { samplingHost } from "@/lib/host/sampling";

/** Everything servers are waiting on the caller for: elicitations and sampling reviews. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ elicitations: elicitationBroker().list(user.id), sampling: samplingHost().reviews.list(user.id) });
});
