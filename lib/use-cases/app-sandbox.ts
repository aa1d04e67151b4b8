/**
 * The first page of an MCP App's frame (docs/mcp-apps.md#the-frame): the app's declared CSP, with
 * loopback origins only under the host's grant for this user, on the origin the request came to.
 */
import "server-only";
import { grantedAppCsp } from "../apps/loopback-grant";
import { sandboxPage } from "../apps/sandbox-page";
import { publicOriginFor } from "../security/public-url";

/** The sandbox page's body and headers for `userId`, from the CSP the frame's URL carries. */
export function appSandboxPage(request: Request, userId: string, csp: unknown) {
  const origin = publicOriginFor({ host: request.headers.get("host"), forwardedProto: request.headers.get("x-forwarded-proto") });
  return sandboxPage(grantedAppCsp(csp, userId), origin);
}
