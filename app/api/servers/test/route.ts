import { requireWorkspace } from "@/lib/use-cases/caller";
import { testServerConnection } from "@/lib/use-cases/test-connection";
import { parseJson, route } from "@/lib/http";
import { testBody } from "./schema";

/** Try a server config (owners/admins, who can save one) without saving it: the real connect through the SSRF guard, said in plain words. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request, { role: "admin" });
  const body = await parseJson(request, testBody);
  return Response.json(await testServerConnection(caller, body));
});
