import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { deleteUser, updateUser } from "@/lib/use-cases/admin";
import { idParam, parseJson, route } from "@/lib/http";
import { updateUserBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Make/remove admin, disable/enable (`{isAdmin?, disabled?}`); disabling ends sessions and connections now. */
export const PATCH = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, updateUserBody);
  return Response.json(await updateUser(admin, await idParam(context), body));
});

/** Delete a user with their personal data. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  await deleteUser(admin, await idParam(context));
  return new Response(null, { status: 204 });
});
