/**
 * The callback's HTTP answer, apart from Next so tests drive it with a real SQLite file: success is
 * a redirect to a fixed path; every refusal is a fixed page from OAUTH_ERROR_MESSAGES. Nothing from
 * the query string is ever written into the page (an OAuth callback XSS seen elsewhere).
 */
import { redact } from "../../redact";
import type { ServerDefinition } from "../../mcp/config";
import type { OAuthDeps } from "./deps";
import { OAUTH_ERROR_MESSAGES, OAuthFlowError, type OAuthErrorCode } from "../shared/errors";
import { completeAuthorization } from "./flow";

/** Where the browser lands after a successful authorization. */
export const AFTER_CONNECT_PATH = "/servers";

/** Input of oauthCallbackResponse. */
export interface CallbackRequest {
  url: URL;
  /** The signed-in user, or null (then nothing is taken or exchanged). */
  userId: string | null;
  /** The server of the flow, or null; `forEveryone` for a Connect for everyone (see CallbackInput). */
  findServer: (serverId: string, forEveryone: boolean) => ServerDefinition | null | Promise<ServerDefinition | null>;
  /** Runs after the tokens are stored (the app reconnects the server; a Connect for everyone adopts the account). */
  onAuthorized?: (server: ServerDefinition, grant: { forEveryone: boolean }) => Promise<void>;
}

/** Handle `GET /api/oauth/callback`. */
export async function oauthCallbackResponse(deps: OAuthDeps, request: CallbackRequest): Promise<Response> {
  if (!request.userId) return page(401, "Sign in to Switchboard first, then start again with Connect.");
  try {
    let forEveryone = false;
    const server = await completeAuthorization(deps, {
      userId: request.userId,
      query: request.url.searchParams,
      findServer: (serverId, shared) => {
        forEveryone = shared;
        return request.findServer(serverId, shared);
      },
    });
    await request.onAuthorized?.(server, { forEveryone });
    return new Response(null, { status: 303, headers: { location: AFTER_CONNECT_PATH, "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof OAuthFlowError) return errorPage(error.code);
    console.error(
      "[switchboard] OAuth callback failed:",
      redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
    );
    return errorPage("exchange_failed");
  }
}

/** The fixed page for a refusal. */
export function errorPage(code: OAuthErrorCode): Response {
  return page(400, OAUTH_ERROR_MESSAGES[code]);
}

function page(status: number, message: string): Response {
  // `message` comes from a fixed table; escaping anyway keeps this safe if that ever changes.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switchboard: authorization</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto">
<h1>Authorization not completed</h1><p data-testid="oauth-error">${escapeHtml(message)}</p><p><a href="${AFTER_CONNECT_PATH}">Back to servers</a></p>
</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
