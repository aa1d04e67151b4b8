import { parseJson, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { setSsoSettings, ssoSettings } from "@/lib/use-cases/sso";
import { ssoSettingsBody } from "./schema";

/** SSO-only mode and the break-glass administrator. */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await ssoSettings());
});

/** Set `{ssoOnly, breakGlassEmail}`; needs a recent sign-in (`auth.reauth_required`). */
export const PUT = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, ssoSettingsBody);
  return Response.json(await setSsoSettings(admin, body));
});
