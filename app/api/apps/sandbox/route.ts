import { requireUser } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { appSandboxPage } from "@/lib/use-cases/app-sandbox";
import { sandboxQuery } from "./schema";

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/**
 * The first page of an MCP App's iframe (docs/mcp-apps.md#the-frame): an opaque-origin document with
 * the app's CSP that loads the HTML the host sends it. It carries no user data. Loopback origins
 * reach the CSP only with the host's grant for this user (lib/apps/loopback-grant.ts).
 */
export const GET = route(async (request: Request) => {
  const user = await requireUser();
  const query = parseQuery(request, sandboxQuery);
  const page = appSandboxPage(request, user.id, parsed(query.csp));
  return new Response(page.body, { headers: page.headers });
});
