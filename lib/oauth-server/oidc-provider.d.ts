/**
 * The part of oidc-provider 9 (which ships no types) that lib/oauth-server uses. Options are passed
 * as a plain object (see its docs/README.md for every key); only what this code reads is typed.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** One interaction (a sign-in or consent step) waiting for the user. */
  export interface InteractionRecord {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
    exp: number;
  }

  /** A grant: what one account allowed one client. */
  export interface GrantRecord {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  /** A stored access token. */
  export interface AccessTokenRecord {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    aud?: string | string[];
    scope?: string;
    isExpired: boolean;
  }

  /** A registered (or metadata-document) client. */
  export interface ClientRecord {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    metadata(): Record<string, unknown>;
  }

  /** The provider: a koa application with oidc-provider's routes. */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionRecord>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Interaction: { find(uid: string): Promise<InteractionRecord | undefined> };
    Grant: { new (properties: { accountId: string; clientId: string }): GrantRecord; find(id: string): Promise<GrantRecord | undefined> };
    AccessToken: { find(value: string): Promise<AccessTokenRecord | undefined> };
    RefreshToken: {
      find(value: string): Promise<{ jti: string; grantId: string; consumed?: unknown; destroy(): Promise<void> } | undefined>;
    };
    Client: { find(id: string): Promise<ClientRecord | undefined> };
  }

  /** oidc-provider's error classes (each an OAuth error code). */
  export const errors: Record<string, new (description?: string) => Error>;
}
