import { getDb } from "@/db/client";
import { getUserById } from "@/db/queries/users";
import { registerUser } from "@/lib/auth/register";
import { sessionUserId } from "@/lib/auth/session-token";
import { clientAddress } from "@/lib/auth/sign-in-throttle";
import { readJson, route } from "@/lib/http";

/**
 * Sign up (open registration, or the first account with the setup code), or an administrator adding
 * a user. Self sign-up answers the same for a new and a taken email, so it reveals no accounts.
 */
export const POST = route(async (request: Request) => {
  // Who is calling first (an administrator adding a user), then the body, capped small.
  const callerId = await sessionUserId();
  const body = await readJson(request, 10_000);
  const db = getDb();
  const byAdmin = !!callerId && !!getUserById(db, callerId)?.isAdmin;
  const user = await registerUser(db, body, { byAdmin, address: clientAddress(request.headers) });
  if (byAdmin && user) return Response.json({ id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin }, { status: 201 });
  const { email, name } = body as { email: string; name: string };
  return Response.json({ email: String(email).trim().toLowerCase(), name: String(name).trim() }, { status: 201 });
});
