import { getDb } from "@/db/client";
import { requireInstanceAdmin } from "@/lib/auth/workspace";
import { parseJson, parseQuery, route } from "@/lib/http";
import { requestPublicOrigin } from "@/lib/security/public-url";
import { adminInviteUser, adminListUsers } from "@/lib/workspaces/admin";
import { createUserBody, userSearchQuery } from "./schema";

/** Every user (`?q=` searches name and email); instance administrators only. */
export const GET = route(async (request: Request) => {
  await requireInstanceAdmin();
  const query = parseQuery(request, userSearchQuery);
  return Response.json(adminListUsers(getDb(), query.q));
});

/** Create an account by invitation: `{email}` → 201 `{id, token, url}` (the link is shown once). */
export const POST = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, createUserBody);
  return Response.json(adminInviteUser(getDb(), admin, body.email, requestPublicOrigin(request)), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});
