import { requireUser } from "@/lib/use-cases/caller";
import { pendingForUser } from "@/lib/use-cases/user-requests";
import { route } from "@/lib/http";

/**
 * Everything servers are waiting on the caller for, on any replica: elicitations and sampling reviews,
 * and the questions withdrawn lately because the connection that asked is gone (`withdrawn`).
 */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(await pendingForUser(user.id));
});
