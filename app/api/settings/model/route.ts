import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { parseBody } from "@/lib/host/server-api";
import { modelSettingsSchema, modelSettingsView, updateModelSettings } from "@/lib/agent/settings-service";

/** The caller's model settings (API key masked) and which model is in effect. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(modelSettingsView(getDb(), user.id));
});

/** Change provider, model, base URL or key (omit `apiKey` to keep the stored one). */
export const PUT = route(async (request: Request) => {
  const body = await parseBody(request, modelSettingsSchema);
  const user = await requireUser();
  updateModelSettings(getDb(), user.id, body);
  return Response.json(modelSettingsView(getDb(), user.id));
});
