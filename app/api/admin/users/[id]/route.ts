import { getDb } from "@/db/client";
import { requireInstanceAdmin } from "@/lib/auth/workspace";
import { appAccessEffects } from "@/lib/use-cases/access-effects";
import { idParam, parseJson, route } from "@/lib/http";
import { adminDeleteUser, adminUpdateUser } from "@/lib/workspaces/admin";
import { updateUserBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Make/remove admin, disable/enable (`{isAdmin?, disabled?}`); disabling ends sessions and connections now. */
export const PATCH = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, updateUserBody);
  return Response.json(await adminUpdateUser(getDb(), admin, await idParam(context), body, appAccessEffects()));
});

/** Delete a user with their personal data. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  await adminDeleteUser(getDb(), admin, await idParam(context), appAccessEffects());
  return new Response(null, { status: 204 });
});
