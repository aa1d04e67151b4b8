import { requireWorkspace } from "@/lib/use-cases/caller";
import { importAndStartServers, previewServerImport } from "@/lib/use-cases/saved-servers";
import { parseJson, route } from "@/lib/http";
import { importBody } from "./schema";

/**
 * Import servers from Claude Desktop / Cursor / VS Code / `mcp_servers:` text. Without `confirm`:
 * 200 `{servers: [{name, config, valid, error?, needsConsent, launch, inputs}]}`, nothing saved.
 * With `confirm: [names]`: 201 `{created: [ids]}` (owners/admins; stdio only for an instance administrator).
 */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, importBody);
  if (!body.confirm) return Response.json(await previewServerImport(caller, body));
  return Response.json(await importAndStartServers(caller, { ...body, confirm: body.confirm }), { status: 201 });
});
