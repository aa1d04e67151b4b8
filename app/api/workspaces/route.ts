import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { parseJson, route } from "@/lib/http";
import { createWorkspace, listMyWorkspaces } from "@/lib/workspaces/service";
import { createWorkspaceBody } from "./schema";

/** The caller's workspaces: `[{id, slug, name, role, personal}]`. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(listMyWorkspaces(getDb(), user.id));
});

/** Create a team workspace owned by the caller: `{name}` → 201 `{id, slug, name}`. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const body = await parseJson(request, createWorkspaceBody);
  return Response.json(createWorkspace(getDb(), user.id, body.name), { status: 201 });
});
