import { callAppTool } from "@/lib/use-cases/app-calls";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { appCallBody } from "./schema";

/** A tool call an MCP App asked for: same gate, policies and audit as the agent's calls (docs/mcp-apps.md). */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, appCallBody);
  return Response.json(await callAppTool(caller, body, request.signal));
});
