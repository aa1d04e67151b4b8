import { parseJson, route } from "@/lib/http";
import { setUserModelSettings, userModelSettings } from "@/lib/use-cases/account";
import { requireUser } from "@/lib/use-cases/caller";
import { modelSettingsBody } from "./schema";

/** The caller's model settings (API key masked) and which model is in effect. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(userModelSettings(user.id));
});

/** Change provider, model, base URL or key (omit `apiKey` to keep the stored one). */
export const PUT = route(async (request: Request) => {
  const user = await requireUser();
  const body = await parseJson(request, modelSettingsBody);
  return Response.json(setUserModelSettings(user.id, body));
});
