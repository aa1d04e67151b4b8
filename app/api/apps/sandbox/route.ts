import { requireUser } from "@/lib/auth/session";
import { sanitizeAppCsp } from "@/lib/apps/app-csp";
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
 * the app's CSP that loads the HTML the host sends it. It carries no user data.
 */
export const GET = route(async (request: Request) => {
  await requireUser();
  const query = parseQuery(request, sandboxQuery);
  const origin = publicOriginFor({ host: request.headers.get("host"), forwardedProto: request.headers.get("x-forwarded-proto") });
  const page = sandboxPage(sanitizeAppCsp(parsed(query.csp)), origin);
  return new Response(page.body, { headers: page.headers });
});
