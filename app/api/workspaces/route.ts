import { requireUser } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { myWorkspaces, newWorkspace } from "@/lib/use-cases/workspaces";
import { createWorkspaceBody } from "./schema";

/** The caller's workspaces: `[{id, slug, name, role, personal}]`. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json(await myWorkspaces(user.id));
});

/** Create a team workspace owned by the caller: `{name}` → 201 `{id, slug, name}`. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const body = await parseJson(request, createWorkspaceBody);
  return Response.json(await newWorkspace(user.id, body.name), { status: 201 });
});
