import { parseJson, route } from "@/lib/http";
import { setUserModelSettings, userModelSettings } from "@/lib/use-cases/account";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { modelSettingsBody } from "./schema";

/**
 * The caller's model settings (API key masked) and which model is in effect in the workspace the
 * path names (`/api/w/<slug>/settings/model`; the personal one without): their own, its default, the instance's.
 */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await userModelSettings(caller));
});

/** Change provider, model, base URL or key (omit `apiKey` to keep the stored one). */
export const PUT = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, modelSettingsBody);
  return Response.json(await setUserModelSettings(caller, body));
});
