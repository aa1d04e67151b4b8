/**
 * The SDK's `OAuthClientProvider` for one (user, server) over an OAuthStore (docs/security.md#oauth). The SDK
 * does discovery, registration, PKCE and the token requests; this class keeps what they produce,
 * applies the URL rules, refreshes expired tokens once per key, and says what "send the user to
 * the authorization URL" means for its caller (browser, headless fetch, or "not now").
 */
import { refreshAuthorization, UnauthorizedError, type OAuthClientProvider, type OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { OAuthError } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { checkResourceAllowed } from "@modelcontextprotocol/client";
import { randomBytes } from "node:crypto";
import { OAuthFlowError } from "./errors";
import { assertUsableClient, checkedTokens } from "./response-checks";
import { unionScopes } from "./scopes";
import { registerWithoutScope } from "./scope-free-registration";
import { singleFlight } from "./single-flight";
import type { CredentialKey, CredentialKind, OAuthStore } from "./store";
import { assertDiscoveryState, assertOAuthUrl, type OAuthUrlPolicy } from "./url-policy";

import type { StepUpRecorder } from "../../mcp/step-up";

/** Tokens count as expired this long (at most a quarter of their life) before `expires_in` runs out. */
const EXPIRY_SKEW_MS = 30_000;

/** Called when the user must authorize: the caller sends them (or a headless agent) to `url`. */
export type AuthorizationHandler = (request: { url: URL; state: string; codeVerifier: string }) => Promise<void>;

/** Options of a SwitchboardOAuthProvider. */
export interface ProviderOptions {
  key: CredentialKey;
  /** The MCP server URL; tokens stored for another URL are never returned (docs/security.md#oauth). */
  serverUrl: string;
  store: OAuthStore;
  /** Where the AS sends the browser back (the app's `/api/oauth/callback`). Undefined: no redirect flow. */
  redirectUrl?: string;
  /** The Client ID Metadata Document URL (https only; the SDK ignores it otherwise). Default: none. */
  clientMetadataUrl?: string;
  /** OIDC `application_type` sent when registering. Default: the SDK's guess (a loopback redirect URI = "native"). */
  applicationType?: "web" | "native";
  /** `client_name` shown on consent screens. Default "Switchboard". */
  clientName?: string;
  /** Pre-registered client from the server config (`oauth.client_id` / `oauth.client_secret`). */
  preRegistered?: { clientId: string; clientSecret?: string };
  /** Fallback scope (`oauth.scope`) when neither the challenge nor the metadata names one. */
  scope?: string;
  /** What to do when the user must authorize. Absent = background use: throw UnauthorizedError. */
  onAuthorize?: AuthorizationHandler;
  /** The PKCE verifier of the authorization being completed (callback). */
  codeVerifier?: string;
  /** Act as if no tokens were stored (Connect: a fresh authorization, the old tokens kept until it ends). */
  ignoreStoredTokens?: boolean;
  /**
   * Register dynamically without a `scope` (RFC 7591 §2: optional), so a later step-up to a scope
   * only a 403 names is not refused by a registration narrowed to the first scope. Default false:
   * the SDK registers with the scope it resolved.
   */
  registerWithoutScope?: boolean;
  /** fetch for the provider's own requests (refresh); must be the SSRF-guarded OAuth fetch. */
  fetch: FetchLike;
  policy: OAuthUrlPolicy;
  /** Time source. Default Date.now. */
  now?: () => number;
}

interface StoredTokens {
  tokens: OAuthTokens & { issuer?: string };
  obtainedAt: number;
  serverUrl: string;
}

/** An `OAuthClientProvider` for one (user, server); it also remembers step-up scopes for the next Connect. */
export class SwitchboardOAuthProvider implements OAuthClientProvider, StepUpRecorder {
  readonly clientMetadataUrl?: string;
  private pendingState?: string;
  private verifier?: string;
  private readonly now: () => number;

  constructor(private readonly options: ProviderOptions) {
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.verifier = options.codeVerifier;
    this.now = options.now ?? Date.now;
  }

  /**
   * The engine saw a 403 `insufficient_scope` for `scope`: keep, for the next authorization, the
   * scope already granted plus the challenged one (the challenge may name only the missing scope,
   * and a narrower token would break the tools that work today).
   */
  async recordRequiredScope(scope: string): Promise<string> {
    const stored = await this.storedTokens();
    const discovery = await this.discoveryState();
    // RFC 6749 §5.1: a token response may leave `scope` out when it is what was asked for, which
    // without a scope of ours is the resource's scopes_supported (the SDK's default).
    const granted = stored?.tokens.scope ?? discovery?.resourceMetadata?.scopes_supported?.join(" ") ?? this.options.scope;
    const previous = await this.options.store.get(this.options.key, "required_scope");
    const required = unionScopes(previous, granted, scope) ?? scope;
    await this.options.store.set(this.options.key, "required_scope", required);
    return required;
  }

  /** The wider scope recorded by a step-up and not yet granted by a completed Connect. */
  async pendingStepUp(): Promise<string | undefined> {
    return this.options.store.get(this.options.key, "required_scope");
  }

  get redirectUrl(): string | undefined {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? "Switchboard",
      ...(this.options.applicationType ? { application_type: this.options.applicationType } : {}),
      redirect_uris: this.options.redirectUrl ? [this.options.redirectUrl] : [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  async state(): Promise<string> {
    if (!this.options.onAuthorize) throw new UnauthorizedError("authorization needed: connect the server to sign in");
    this.pendingState = randomBytes(32).toString("base64url");
    return this.pendingState;
  }

  async clientInformation(ctx?: { issuer?: string }): Promise<OAuthClientInformationMixed | undefined> {
    const pre = this.options.preRegistered;
    if (pre) return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}) };
    const stored = await this.read<OAuthClientInformationMixed>("client");
    if (stored || !this.options.registerWithoutScope || !this.options.onAuthorize) return stored;
    return this.registerUnrestricted(ctx?.issuer);
  }

  /** Register without a scope limit where the SDK would register (after discovery, before the authorization request). */
  private async registerUnrestricted(issuer: string | undefined): Promise<OAuthClientInformationMixed | undefined> {
    const info = await registerWithoutScope(this, await this.discoveryState(), this.options.fetch, issuer);
    if (info) assertUsableClient(info);
    if (info) await this.write("client", info);
    return info;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.options.preRegistered) return; // the config is the source of truth
    assertUsableClient(info);
    // In the background, a new registration means a new authorization is coming: leave both to the user.
    if (!this.options.onAuthorize && !(await this.read("client"))) {
      throw new UnauthorizedError("authorization needed: connect the server to sign in");
    }
    await this.write("client", info);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.options.ignoreStoredTokens) return undefined;
    const stored = await this.storedTokens();
    if (!stored) return undefined;
    if (!this.isExpired(stored) || !stored.tokens.refresh_token) return stored.tokens;
    // One refresh per (user, server): callers in this process share it (singleFlight), and other
    // processes on the same store wait for it and then read what it stored (the store's lease).
    const store = this.options.store;
    const refresh = () => this.refresh();
    return singleFlight(JSON.stringify([this.options.key.userId, this.options.key.serverId]), () =>
      store.underRefreshLease ? store.underRefreshLease(this.options.key, refresh) : refresh(),
    );
  }

  /** Store tokens the authorization server issued, after the checks of response-checks.ts. */
  async saveTokens(received: OAuthTokens): Promise<void> {
    const tokens = checkedTokens(received, await this.allowedScopes());
    const record: StoredTokens = { tokens, obtainedAt: this.now(), serverUrl: this.options.serverUrl };
    const expiresAt = tokens.expires_in ? record.obtainedAt + tokens.expires_in * 1000 : undefined;
    await this.options.store.set(this.options.key, "tokens", JSON.stringify(record), expiresAt);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const url = assertOAuthUrl(authorizationUrl, this.options.policy);
    if (!this.options.onAuthorize || !this.pendingState || !this.verifier) {
      throw new UnauthorizedError("authorization needed: connect the server to sign in");
    }
    // The scope this authorization asks for: the token answer may grant no more (saveTokens).
    const scope = url.searchParams.get("scope");
    if (scope) await this.options.store.set(this.options.key, "requested_scope", scope);
    else await this.options.store.delete(this.options.key, ["requested_scope"]);
    await this.options.onAuthorize({ url, state: this.pendingState, codeVerifier: this.verifier });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.verifier = codeVerifier;
  }

  async codeVerifier(): Promise<string> {
    if (!this.verifier) throw new UnauthorizedError("no authorization in progress");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const kinds: Record<typeof scope, CredentialKind[]> = {
      all: ["client", "tokens", "discovery"],
      client: ["client"],
      tokens: ["tokens"],
      discovery: ["discovery"],
      verifier: [],
    };
    if (scope === "verifier" || scope === "all") this.verifier = undefined;
    if (kinds[scope].length) await this.options.store.delete(this.options.key, kinds[scope]);
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // Checked before registration or any token request sends a secret (docs/security.md#oauth).
    assertDiscoveryState(state, this.options.policy);
    this.assertResourceAllowed(state.resourceMetadata?.resource);
    // In the background with no client yet, the SDK would register one next and then need an
    // authorization only the user can give: stop before that registration leaves an unused client.
    if (!this.options.onAuthorize && !this.verifier && !(await this.clientInformation())) {
      throw new UnauthorizedError("authorization needed: connect the server to sign in");
    }
    await this.write("discovery", { serverUrl: this.options.serverUrl, state });
  }

  /**
   * RFC 8707 / RFC 9728 §3.3: the metadata must name this server (or its origin), else refuse.
   * Checked on the discovery the SDK saves rather than through `validateResourceURL`, whose `URL`
   * result would send a pathless resource with a `/` appended: the SDK then sends the published
   * string byte for byte.
   */
  assertResourceAllowed(resource: string | undefined): void {
    if (resource === undefined) return;
    if (!checkResourceAllowed({ requestedResource: this.options.serverUrl, configuredResource: resource })) {
      throw new OAuthFlowError("resource_mismatch");
    }
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const stored = await this.read<{ serverUrl: string; state: OAuthDiscoveryState }>("discovery");
    // What was discovered for another URL (the config changed) says nothing about this one.
    return stored?.serverUrl === this.options.serverUrl ? stored.state : undefined;
  }

  /** Forget everything stored for this (user, server). */
  async forget(): Promise<void> {
    await this.options.store.delete(this.options.key);
  }

  private async refresh(): Promise<OAuthTokens | undefined> {
    const stored = await this.storedTokens();
    if (!stored?.tokens.refresh_token || !this.isExpired(stored)) return stored?.tokens;
    const discovery = await this.discoveryState();
    const client = await this.clientInformation();
    if (!discovery || !client) return stored.tokens;
    try {
      const fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: client,
        refreshToken: stored.tokens.refresh_token,
        // As published, byte for byte (a URL object would append "/" to a pathless resource).
        resource: discovery.resourceMetadata?.resource,
        addClientAuthentication: this.addClientAuthentication,
        fetchFn: this.options.fetch,
      });
      const tokens = { ...fresh, issuer: stored.tokens.issuer };
      await this.saveTokens(tokens);
      return tokens;
    } catch (error) {
      // The AS refused the refresh token (revoked, expired), or answered with tokens Switchboard
      // refuses (saveTokens): forget them, so the user is asked again.
      if (error instanceof OAuthError || error instanceof OAuthFlowError) {
        await this.options.store.delete(this.options.key, ["tokens"]);
        return undefined;
      }
      // Network trouble: keep the tokens; the server's 401 leads the SDK to try again.
      return stored.tokens;
    }
  }

  /** Set by subclasses for private_key_jwt and similar; undefined = the SDK's default methods. */
  addClientAuthentication?: OAuthClientProvider["addClientAuthentication"];

  /**
   * The scopes a token answer may grant: what the last authorization asked for plus what was
   * granted before (a refresh keeps its grant). Undefined when neither is known: nothing to compare.
   */
  private async allowedScopes(): Promise<Set<string> | undefined> {
    const requested = await this.options.store.get(this.options.key, "requested_scope");
    const granted = (await this.read<StoredTokens>("tokens"))?.tokens.scope;
    if (!requested && !granted) return undefined;
    return new Set(`${requested ?? ""} ${granted ?? ""}`.split(/\s+/).filter(Boolean));
  }

  private isExpired(stored: StoredTokens): boolean {
    const expiresIn = stored.tokens.expires_in;
    if (expiresIn === undefined) return false;
    const skew = Math.min(EXPIRY_SKEW_MS, (expiresIn * 1000) / 4);
    return stored.obtainedAt + expiresIn * 1000 - skew <= this.now();
  }

  private async storedTokens(): Promise<StoredTokens | undefined> {
    const stored = await this.read<StoredTokens>("tokens");
    // Tokens obtained for another URL (the config changed) never go to this one.
    return stored && stored.serverUrl === this.options.serverUrl ? stored : undefined;
  }

  private async read<T>(kind: CredentialKind): Promise<T | undefined> {
    const text = await this.options.store.get(this.options.key, kind);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  private async write(kind: CredentialKind, value: unknown): Promise<void> {
    await this.options.store.set(this.options.key, kind, JSON.stringify(value));
  }
}
