import { idParam, parseJson, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { changeSsoProvider, deleteSsoProvider } from "@/lib/use-cases/sso";
import { ssoProviderUpdateBody } from "../schema";

type Context = { params: Promise<{ id: string }> };

/** Change an admin-configured provider (the secret only when sent); needs a recent sign-in. */
export const PUT = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, ssoProviderUpdateBody);
  return Response.json(await changeSsoProvider(admin, await idParam(context), body));
});

/** Remove an admin-configured provider (its users keep their accounts); needs a recent sign-in. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  await deleteSsoProvider(admin, await idParam(context));
  return new Response(null, { status: 204 });
});
