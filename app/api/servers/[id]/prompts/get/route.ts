import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer, getPromptBody, parseBody } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** prompts/get with string arguments. */
export const POST = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const body = await parseBody(request, getPromptBody);
  return Response.json(await appPool().getPrompt(user.id, server, body.name, body.arguments, { signal: request.signal }));
});
