import { parseJson, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { addSsoProvider, adminSsoProviders } from "@/lib/use-cases/sso";
import { ssoProviderBody } from "./schema";

/** The single sign-on providers (environment and admin-configured; never a client secret). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await adminSsoProviders());
});

/** Add a provider → 201 with its view; needs a recent sign-in (`auth.reauth_required`). */
export const POST = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, ssoProviderBody);
  return Response.json(await addSsoProvider(admin, body), { status: 201 });
});
