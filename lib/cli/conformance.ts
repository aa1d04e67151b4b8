/**
 * `switchboard conformance <url>`: the official MCP conformance suite's client contract. It drives
 * the same OAuth provider as the web app, with a headless user agent and an in-memory store, and
 * the scenario named in `MCP_CONFORMANCE_SCENARIO` (credentials in `MCP_CONFORMANCE_CONTEXT`).
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/client";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { createGuardedFetch, parseAllowedHosts } from "../net";
import { redact } from "../redact";
import { createAuthorizingFetch } from "../oauth/authorizing-fetch";
import { crossAppProvider } from "../oauth/cross-app";
import { elicitationDefaults } from "../oauth/elicitation-defaults";
import { createHeadlessAuthorizer } from "../oauth/headless";
import { createMemoryStore } from "../oauth/memory-store";
import { SwitchboardOAuthProvider } from "../oauth/provider";
import type { OAuthUrlPolicy } from "../oauth/url-policy";

/** The CIMD URL the suite expects (CONFORMANCE.md "CIMD URL"); never fetched by the client. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Any absolute URL works: the suite's AS redirects there and nobody follows it. */
const REDIRECT_URL = "http://localhost:3000/callback";

/** `MCP_CONFORMANCE_CONTEXT` as the suite sends it. */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
}

/** Run the scenario against `url`; returns the process exit code (0 = done, 1 = failed). */
export async function runConformance(url: string): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as ConformanceContext;
  // A local command talking to the suite's mock servers: loopback (and plain http to it) is allowed.
  const baseFetch = createGuardedFetch({ allowedHosts: parseAllowedHosts("localhost,127.0.0.1,::1"), allowHttp: "loopback" });
  const policy: OAuthUrlPolicy = { allowLoopbackHttp: true };
  let client: Client | undefined;
  try {
    const wiring = await transportWiring(url, scenario, context, baseFetch, policy);
    client = new Client({ name: "switchboard", version: "0.1.0" }, { capabilities: { elicitation: { form: { applyDefaults: true } } } });
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept",
      content: "requestedSchema" in request.params ? elicitationDefaults(request.params.requestedSchema) : {},
    }));
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: wiring.fetch,
      authProvider: wiring.authProvider,
      reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 3 },
    });
    await client.connect(transport);
    await exercise(client, scenario);
    await client.close();
    await baseFetch.close();
    return 0;
  } catch (error) {
    process.stderr.write(
      `switchboard conformance: ${redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}\n`,
    );
    await client?.close().catch(() => undefined);
    return 1;
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
  return { fetch: createAuthorizingFetch({ fetch, oauthFetch: fetch, provider, serverUrl: url, takeCode: authorizer.takeCode }) };
}

/** What each scenario expects the client to do once connected. */
async function exercise(client: Client, scenario: string): Promise<void> {
  const { tools } = await client.listTools();
  const names = new Set(tools.map((tool) => tool.name));
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`tool ${name} returned an error`);
  };
  if (scenario === "tools_call" || names.has("add_numbers")) return call("add_numbers", { a: 2, b: 3 });
  if (names.has("test_client_elicitation_defaults")) return call("test_client_elicitation_defaults");
  if (names.has("test_reconnection")) return call("test_reconnection");
  if (names.has("test-tool")) return call("test-tool");
}

function required(value: string | undefined): string {
  if (!value) throw new Error("MCP_CONFORMANCE_CONTEXT lacks a field this scenario needs");
  return value;
}
