import { requireWorkspace } from "@/lib/use-cases/caller";
import { getServerPrompt } from "@/lib/use-cases/server-ops";
import { idParam, parseJson, route } from "@/lib/http";
import { getPromptBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** prompts/get with string arguments. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, getPromptBody);
  return Response.json(await getServerPrompt(caller, await idParam(context), body, request.signal));
});
