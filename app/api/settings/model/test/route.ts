import { getDb } from "@/db/client";
import { testUserModel } from "@/lib/models/model-test";
import { requireWorkspace } from "@/lib/auth/workspace";
import { route } from "@/lib/http";
import { workspaceModelChoice } from "@/lib/models/workspace-default";

/** Send one short request to the model the caller would chat with (saved settings), and say how it went. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await testUserModel(getDb(), caller.id, workspaceModelChoice(getDb(), caller.workspaceId)));
});
