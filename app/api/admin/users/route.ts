import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { parseJson, parseQuery, route } from "@/lib/http";
import { instanceUsers, inviteUser } from "@/lib/use-cases/admin";
import { deliverInvitation } from "@/lib/use-cases/mail-links";
import { createUserBody, userSearchQuery } from "./schema";

/** Every user (`?q=` searches name and email); instance administrators only. */
export const GET = route(async (request: Request) => {
  await requireInstanceAdmin();
  const query = parseQuery(request, userSearchQuery);
  return Response.json(await instanceUsers(query.q));
});

/**
 * Create an account by invitation: `{email}` → 201 `{id, emailed: true}` when mail is set up (the
 * link went to the address), else `{id, token, url, emailed: false}` (the link is shown once).
 */
export const POST = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, createUserBody);
  return Response.json(await deliverInvitation(await inviteUser(admin, body.email, request), { email: body.email }), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});
