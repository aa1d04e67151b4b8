import { requireUser } from "@/lib/auth/session";
import { grantedAppCsp } from "@/lib/apps/loopback-grant";
import { sandboxPage } from "@/lib/apps/sandbox-page";
import { parseQuery, route } from "@/lib/http";
import { publicOriginFor } from "@/lib/security/public-url";
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
  const origin = publicOriginFor({ host: request.headers.get("host"), forwardedProto: request.headers.get("x-forwarded-proto") });
  const page = sandboxPage(grantedAppCsp(parsed(query.csp), user.id), origin);
  return new Response(page.body, { headers: page.headers });
});
