/**
 * The check of an access token this authorization server issued, on a gateway endpoint: the token
 * is found by its hash (adapter.ts), unexpired, and its audience (RFC 8707 resource) is exactly the
 * endpoint's URL; then its user must exist and still be a member of the workspace the resource
 * names, read on every request, so a removed member's token is refused at once.
 */
import type Provider from "oidc-provider";
import type { Db } from "../../db/client";
import { touchOAuthServerGrant } from "../../db/queries/oauth-server";
import { getUserById, type UserRecord } from "../../db/queries/users";
import { getMembershipRole, getPersonalWorkspaceId, getWorkspaceBySlug, PERSONAL_SLUG } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import { recordKey } from "./adapter";
import { parseGatewayResource } from "./resource";

/** Who an access token speaks for. */
export interface OAuthTokenCaller {
  user: UserRecord;
  /** The workspace its resource names, which the user is a member of. */
  workspaceId: string;
  /** The client it was issued to (its id: a random id, or a metadata document's URL). */
  clientId: string;
}

// The last use is written at most once a minute per grant.
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

/** The workspace `slug` names for `userId` (their own for `personal`), when they are a member of it. */
export async function memberWorkspaceId(db: Db, userId: string, slug: string): Promise<string | null> {
  const id = slug === PERSONAL_SLUG ? await getPersonalWorkspaceId(db, userId) : ((await getWorkspaceBySlug(db, slug))?.id ?? null);
  if (!id) return null;
  return (await getMembershipRole(db, id, userId)) ? id : null;
}

/**
 * The caller `secret` stands for at the endpoint `endpointUrl`, or a 401 AppError: `token.invalid`
 * (unknown, expired, revoked, or for another audience), `token.account_disabled`, `token.access_lost`.
 */
export async function authenticateAccessToken(
  db: Db,
  provider: Provider,
  secret: string,
  endpointUrl: string,
  now = Date.now(),
): Promise<OAuthTokenCaller> {
  // An oidc-provider opaque token is 43 base64url characters; anything else costs no lookup.
  const token = /^[A-Za-z0-9_-]{20,128}$/.test(secret) ? await provider.AccessToken.find(secret) : undefined;
  if (!token || token.isExpired) throw new AppError("token.invalid", "This access token is not valid.");
  const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
  if (audiences.length !== 1 || audiences[0] !== endpointUrl)
    throw new AppError("token.invalid", "This access token was issued for another endpoint.");
  const resource = parseGatewayResource(endpointUrl, endpointUrl);
  if (!resource) throw new AppError("token.invalid", "This access token is not valid.");
  const user = await getUserById(db, token.accountId);
  if (!user) throw new AppError("token.account_disabled", "The account of this access token is disabled.");
  const workspaceId = await memberWorkspaceId(db, user.id, resource.slug);
  if (!workspaceId) throw new AppError("token.access_lost", "The owner of this access token is no longer a member of its workspace.");
  if (now - (touched.get(token.grantId) ?? 0) >= TOUCH_EVERY_MS) {
    touched.set(token.grantId, now);
    if (touched.size > 10_000) touched.clear();
    await touchOAuthServerGrant(db, recordKey("Grant", token.grantId), new Date(now));
  }
  return { user, workspaceId, clientId: token.clientId };
}
