import { getDb } from "@/db/client";
import { signOutEverywhere } from "@/lib/auth/account";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";

/** Sign out of all devices: every session of the caller ends, this one included. */
export const DELETE = route(async () => {
  const user = await requireUser();
  return Response.json(signOutEverywhere(getDb(), user.id));
});
