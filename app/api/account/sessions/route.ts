import { route } from "@/lib/http";
import { signOutEverywhere } from "@/lib/use-cases/account";
import { requireUser } from "@/lib/use-cases/caller";

/** Sign out of all devices: every session of the caller ends, this one included. */
export const DELETE = route(async () => {
  const user = await requireUser();
  return Response.json(await signOutEverywhere(user.id));
});
