import { route } from "@/lib/http";
import { testCallerModel } from "@/lib/use-cases/account";
import { requireWorkspace } from "@/lib/use-cases/caller";

/** Send one short request to the model the caller would chat with (saved settings), and say how it went. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await testCallerModel(caller));
});
