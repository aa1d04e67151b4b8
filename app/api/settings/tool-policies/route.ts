import { requireWorkspace } from "@/lib/use-cases/caller";
import { toolPolicies, setToolPolicy } from "@/lib/use-cases/tool-policies";
import { parseJson, route } from "@/lib/http";
import { toolPolicyBody } from "./schema";

/** Every tool of the workspace's servers with the caller's approval policy (ask / allow / deny). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await toolPolicies(caller));
});

/** Set one tool's policy (`scope: "workspace"` for owners/admins), or `policy: null` to return to the default. */
export const PUT = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, toolPolicyBody);
  await setToolPolicy(caller, body);
  return new Response(null, { status: 204 });
});
