import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { idParam, parseJson, route } from "@/lib/http";
import { getToolSearchSettings, setToolSearchSettings } from "@/lib/agent/tool-search-settings";
import { toolSearchBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's tool-search settings (docs/tool-search.md); any member may read them. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(getToolSearchSettings(getDb(), caller.workspaceId));
});

/** Change them (owners/admins). */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, toolSearchBody);
  return Response.json(setToolSearchSettings(getDb(), caller, body));
});
