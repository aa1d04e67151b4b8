import { updateAppContext } from "@/lib/use-cases/app-context";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { appContextBody } from "./schema";

/** Context an MCP App gives the model; it joins the chat's next user message (docs/mcp-apps.md). */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, appContextBody);
  return Response.json(await updateAppContext(caller, body));
});
