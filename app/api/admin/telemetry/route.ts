import { parseJson, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { setTelemetrySettings, telemetrySettings } from "@/lib/use-cases/telemetry-settings";
import { telemetrySettingsBody } from "./schema";

/** The instance's telemetry setting (content capture). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await telemetrySettings());
});

/** Set `{captureContent}`; needs a recent sign-in (`auth.reauth_required`); audited. */
export const PUT = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, telemetrySettingsBody);
  return Response.json(await setTelemetrySettings(admin, body));
});
