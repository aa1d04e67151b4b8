import { recordAppRequest } from "@/lib/use-cases/app-calls";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { appRequestBody } from "./schema";

/** A link or message an MCP App asked for, with the user's answer: checked, redacted, audited (docs/mcp-apps.md). */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, appRequestBody);
  return Response.json(await recordAppRequest(caller, body));
});
