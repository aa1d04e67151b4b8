import { requireUser } from "@/lib/use-cases/caller";
import { pendingForUser } from "@/lib/use-cases/user-requests";
import { route } from "@/lib/http";

/** Everything servers are waiting on the caller for: elicitations and sampling reviews. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(pendingForUser(user.id));
});
