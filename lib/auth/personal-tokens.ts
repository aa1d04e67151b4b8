/**
 * Personal access tokens (docs/personal-tokens.md): a user makes one on the account page for one
 * workspace, some scopes and a bounded lifetime; the secret (`sbp_` + 32 random bytes, base64url)
 * is answered once and only its SHA-256 is kept. Every use checks expiry, revocation, the account
 * and the membership again, so disabling a user or removing a member stops their tokens at once.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { recordAudit } from "../../db/queries/audit";
import {
  getPersonalTokenByHash,
  type PersonalTokenRecord,
  insertPersonalToken,
  listPersonalTokensOfUser,
  revokePersonalToken,
  touchPersonalToken,
} from "../../db/queries/personal-tokens";
import { getUserById, type UserRecord } from "../../db/queries/users";
import { getMembershipRole } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import { LookupCache } from "../lookup-cache";

/** What a token may be used for: the MCP endpoints (issue 33's gateway), reading and writing the REST API. */
export const TOKEN_SCOPES = ["mcp", "api:read", "api:write"] as const;
/** One scope. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The lifetimes offered, in days: bounded on purpose (no token that never expires). */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;

/** The prefix every secret starts with, so lib/redact.ts and secret scanners recognise it. */
export const TOKEN_PREFIX = "sbp_";

// `sbp_` then 32 random bytes in base64url (43 characters): 256 bits, so a plain SHA-256 is a safe hash.
const SECRET_SHAPE = /^sbp_[A-Za-z0-9_-]{43}$/;
// A use is written at most once a minute per token: a script polling the API costs no write per call.
const TOUCH_EVERY_MS = 60_000;

/** The body of `POST /api/account/tokens`. */
export const createTokenSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    workspaceId: z.string().min(1).max(64),
    scopes: z.array(z.enum(TOKEN_SCOPES)).min(1).max(TOKEN_SCOPES.length),
    expiresInDays: z.literal(TOKEN_LIFETIMES_DAYS),
  })
  .strict();

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** What a token's check reads from the database: the token, its user (null: gone or disabled), and its membership. */
interface StoredCheck {
  token: PersonalTokenRecord;
  user: UserRecord | null;
  member: boolean;
  /** The last use written (or read), kept here: writing it moves no stamp, so the entry outlives it. */
  lastUsedAt: Date | null;
}

// Each token's check by the SHA-256 of its secret (one token, so one user), valid until the next
// change to personal_tokens (created, revoked), users, workspaces or memberships (db/generation.ts;
// on Postgres the change triggers of migrations 0012 and 0017): a revoked token, a disabled
// account or a removed member is refused on the very next request, on any replica. Expiry and the
// scope are still decided per request from the cached row. An unknown secret is not kept.
const checks = new LookupCache<StoredCheck>(10_000);

/** The stored check of the token whose secret hashes to `hash`, or null for no such token. */
async function storedCheck(db: Db, hash: string): Promise<StoredCheck | null> {
  return await checks.readAsync(hash, generationOf(db), async () => {
    const token = await getPersonalTokenByHash(db, hash);
    if (!token) return null;
    const user = await getUserById(db, token.userId);
    const member = user ? (await getMembershipRole(db, token.workspaceId, token.userId)) !== null : false;
    return { token, user, member, lastUsedAt: token.lastUsedAt };
  });
}

/** A user's tokens as the account page lists them: never the secret nor its hash. */
export async function listTokens(db: Db, userId: string, now = new Date()) {
  return (await listPersonalTokensOfUser(db, userId)).map(({ personal, workspaceSlug, ...token }) => ({
    ...token,
    scopes: token.scopes.split(" ") as TokenScope[],
    workspaceName: personal ? "Personal" : token.workspaceName,
    workspaceSlug: personal ? "personal" : workspaceSlug,
    state: token.revokedAt ? ("revoked" as const) : token.expiresAt <= now ? ("expired" as const) : ("active" as const),
  }));
}

/**
 * Make a token for `owner` in one of their workspaces (else `workspace.not_found`); answers the
 * secret, this once. The caller has checked the recent sign-in.
 */
export async function createToken(db: Db, owner: { id: string }, input: z.infer<typeof createTokenSchema>, now = new Date()) {
  if (!(await getMembershipRole(db, input.workspaceId, owner.id)))
    throw new AppError("workspace.not_found", "Workspace not found", "workspaceId");
  const secret = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const scopes = TOKEN_SCOPES.filter((scope) => input.scopes.includes(scope));
  const token = await insertPersonalToken(db, {
    userId: owner.id,
    workspaceId: input.workspaceId,
    name: input.name,
    scopes: scopes.join(" "),
    tokenHash: hashSecret(secret),
    hint: secret.slice(0, TOKEN_PREFIX.length + 4),
    expiresAt: new Date(now.getTime() + input.expiresInDays * 86_400_000),
  });
  await recordAudit(db, {
    actorId: owner.id,
    workspaceId: input.workspaceId,
    action: "user.token_created",
    target: owner.id,
    detail: { tokenId: token.id, name: token.name, scopes, expiresAt: token.expiresAt.toISOString() },
  });
  return { id: token.id, name: token.name, scopes, workspaceId: token.workspaceId, expiresAt: token.expiresAt, secret };
}

/** Revoke one of the caller's tokens; someone else's (or an unknown or already revoked id) is `token.not_found`. */
export async function revokeToken(db: Db, owner: { id: string }, tokenId: string, now = new Date()): Promise<void> {
  if (!(await revokePersonalToken(db, { id: tokenId, userId: owner.id }, now)))
    throw new AppError("token.not_found", "No such token on your account.");
  await recordAudit(db, { actorId: owner.id, action: "user.token_revoked", target: owner.id, detail: { tokenId } });
}

/** Who a token speaks for: its live user and the one workspace it was made for. */
export interface TokenCaller {
  user: UserRecord;
  workspaceId: string;
  tokenId: string;
}

/**
 * The caller a bearer secret stands for, when it may do `scope`; otherwise a 401 AppError naming why
 * (`token.invalid`, `token.revoked`, `token.expired`, `token.account_disabled`, `token.access_lost`,
 * `token.insufficient_scope`).
 */
export async function authenticateToken(db: Db, secret: string, scope: TokenScope, now = new Date()): Promise<TokenCaller> {
  // Shape first: a malformed value costs no lookup; the lookup is by the hash's unique index, so no
  // secret is ever compared byte by byte.
  const check = SECRET_SHAPE.test(secret) ? await storedCheck(db, hashSecret(secret)) : null;
  if (!check) throw new AppError("token.invalid", "This personal access token is not valid.");
  const { token, user } = check;
  if (token.revokedAt) throw new AppError("token.revoked", "This personal access token was revoked.");
  if (token.expiresAt <= now)
    throw new AppError("token.expired", "This personal access token has expired; make a new one on your account page.");
  if (!user) throw new AppError("token.account_disabled", "The account of this personal access token is disabled.");
  if (!check.member)
    throw new AppError("token.access_lost", "The owner of this personal access token is no longer a member of its workspace.");
  if (!token.scopes.split(" ").includes(scope))
    throw new AppError("token.insufficient_scope", `This personal access token does not have the ${scope} scope.`);
  if (!check.lastUsedAt || now.getTime() - check.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
    // Noted before the write: requests arriving while it runs do not write it again.
    check.lastUsedAt = now;
    await touchPersonalToken(db, token.id, now);
  }
  return { user, workspaceId: token.workspaceId, tokenId: token.id };
}

/** The secret of an `Authorization: Bearer sbp_…` header, or null when the request carries none. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}
