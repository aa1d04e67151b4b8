import { getDb } from "@/db/client";
import { getUserById } from "@/db/queries/users";
import { sessionUserId } from "@/lib/auth/session-token";
import { registerUser } from "@/lib/auth/register";
import { readJson, route } from "@/lib/http";

/** Sign up (open registration), or an administrator adding a user (always allowed). */
export const POST = route(async (request: Request) => {
  // Who is calling first (an administrator adding a user), then the body, capped small.
  const callerId = await sessionUserId();
  const body = await readJson(request, 10_000);
  const db = getDb();
  const byAdmin = !!callerId && !!getUserById(db, callerId)?.isAdmin;
  const user = await registerUser(db, body, { byAdmin });
  return Response.json({ id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin }, { status: 201 });
});
