/**
 * The single sign-on providers in force: those of the environment (read-only) and those an instance
 * administrator configured (docs/sso.md). Administrators add, edit and remove theirs here; the client
 * secret is sealed at rest (db/secrets.ts) and never answered, only whether one is set.
 */
import { z } from "zod";
import type { Db } from "../../../db/client";
import { recordAudit } from "../../../db/queries/audit";
import {
  deleteSsoProvider,
  getSsoProviderRow,
  insertSsoProvider,
  listSsoProviderRows,
  type SsoProviderRow,
  updateSsoProvider,
} from "../../../db/queries/sso";
import { getWorkspaceById, getWorkspaceBySlug } from "../../../db/queries/workspaces";
import { openSecret, sealSecret } from "../../../db/secrets";
import { environment } from "../../env";
import { AppError } from "../../errors";
import { ssoProvidersFromEnv } from "./env-providers";
import { DEFAULT_SCOPES, isProviderId, normaliseDomains, normaliseScopes, type SsoProviderConfig } from "./provider-config";
import { forgetDiscovery } from "./discovery";

const mappingSchema = z
  .object({
    claim: z.string().trim().min(1).max(100),
    adminGroups: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
    workspaces: z
      .array(
        z
          .object({
            group: z.string().trim().min(1).max(200),
            workspaceId: z.string().min(1).max(64),
            role: z.enum(["owner", "admin", "member"]),
          })
          .strict(),
      )
      .max(200)
      .default([]),
  })
  .strict();

/** The body of `POST /api/admin/sso-providers` (a new provider; `name` becomes its id, lower-cased). */
export const ssoProviderSchema = z
  .object({
    name: z.string().trim().min(1).max(40),
    label: z.string().trim().min(1).max(80).optional(),
    issuer: z.string().trim().url().max(500),
    clientId: z.string().trim().min(1).max(500),
    clientSecret: z.string().min(1).max(2000),
    scopes: z.string().trim().max(500).optional(),
    allowedDomains: z.array(z.string().trim().max(253)).max(100).default([]),
    claimMapping: mappingSchema.nullable().default(null),
  })
  .strict();

/** The body of `PUT /api/admin/sso-providers/:id`: every field but the name; the secret only to replace it. */
export const ssoProviderUpdateSchema = ssoProviderSchema
  .omit({ name: true })
  .extend({ clientSecret: z.string().min(1).max(2000).optional() })
  .strict();

/** A provider as the admin area shows it: never the secret. */
export type SsoProviderView = Omit<SsoProviderConfig, "clientSecret"> & { hasClientSecret: boolean };

function fromRow(row: SsoProviderRow): SsoProviderConfig {
  return {
    id: row.id,
    label: row.label,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: openSecret(row.clientSecretEnc),
    scopes: row.scopes,
    allowedDomains: row.allowedDomains,
    claimMapping: row.claimMapping ?? null,
    source: "admin",
  };
}

/**
 * An environment provider's mapping with each workspace (written as slug or id) as its id. A workspace
 * that does not exist (yet) maps nobody: it is left out, so a later one of that slug is picked up.
 */
async function withWorkspaceIds(db: Db, provider: SsoProviderConfig): Promise<SsoProviderConfig> {
  if (!provider.claimMapping) return provider;
  const workspaces = (
    await Promise.all(
      provider.claimMapping.workspaces.map(async (entry) => {
        const workspace = (await getWorkspaceById(db, entry.workspaceId)) ?? (await getWorkspaceBySlug(db, entry.workspaceId));
        return workspace && !workspace.personal ? [{ ...entry, workspaceId: workspace.id }] : [];
      }),
    )
  ).flat();
  return { ...provider, claimMapping: { ...provider.claimMapping, workspaces } };
}

/** Every provider in force, environment first; an id set in both is the environment's. */
export async function listSsoProviders(db: Db): Promise<SsoProviderConfig[]> {
  const fromEnv = await Promise.all(ssoProvidersFromEnv(environment()).map(async (provider) => await withWorkspaceIds(db, provider)));
  const taken = new Set(fromEnv.map((p) => p.id));
  return [...fromEnv, ...(await listSsoProviderRows(db)).filter((row) => !taken.has(row.id)).map(fromRow)];
}

/** One provider in force, or null. */
export async function findSsoProvider(db: Db, id: string): Promise<SsoProviderConfig | null> {
  return (await listSsoProviders(db)).find((p) => p.id === id) ?? null;
}

/** The providers for the admin area (no secrets). */
export async function ssoProviderViews(db: Db): Promise<SsoProviderView[]> {
  return (await listSsoProviders(db)).map(({ clientSecret, ...rest }) => ({ ...rest, hasClientSecret: !!clientSecret }));
}

/** The sign-in page's buttons: id and label only. */
export async function ssoButtons(db: Db): Promise<{ id: string; label: string }[]> {
  return (await listSsoProviders(db)).map((p) => ({ id: p.id, label: p.label }));
}

async function assertMapping(db: Db, mapping: z.infer<typeof mappingSchema> | null): Promise<void> {
  for (const entry of mapping?.workspaces ?? []) {
    const workspace = await getWorkspaceById(db, entry.workspaceId);
    if (!workspace || workspace.personal)
      throw new AppError("sso.invalid_provider", `No team workspace ${entry.workspaceId} for group ${entry.group}.`, "claimMapping");
  }
}

function assertIssuer(issuer: string): void {
  if (!/^https?:\/\//i.test(issuer)) throw new AppError("sso.invalid_provider", "The issuer must be an http(s) URL.", "issuer");
}

/** Add a provider (an instance administrator, re-authenticated by the caller); audited. */
export async function createSsoProvider(db: Db, adminId: string, input: z.infer<typeof ssoProviderSchema>): Promise<SsoProviderView> {
  const id = input.name.toLowerCase();
  if (!isProviderId(id)) throw new AppError("sso.invalid_provider", "The name may hold letters, digits, - and _ only.", "name");
  if (ssoProvidersFromEnv(environment()).some((p) => p.id === id))
    throw new AppError("sso.provider_exists", "A provider with this name is set in the environment.", "name");
  assertIssuer(input.issuer);
  await assertMapping(db, input.claimMapping);
  const inserted = await insertSsoProvider(db, {
    id,
    label: input.label ?? input.name,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecretEnc: sealSecret(input.clientSecret),
    scopes: normaliseScopes(input.scopes || DEFAULT_SCOPES),
    allowedDomains: normaliseDomains(input.allowedDomains),
    claimMapping: input.claimMapping,
  });
  if (!inserted) throw new AppError("sso.provider_exists", "A provider with this name already exists.", "name");
  await recordAudit(db, { actorId: adminId, action: "instance.sso_provider_add", target: id, detail: { issuer: input.issuer } });
  return (await ssoProviderViews(db)).find((p) => p.id === id) as SsoProviderView;
}

/** Change an admin-configured provider; audited. */
export async function editSsoProvider(
  db: Db,
  adminId: string,
  id: string,
  input: z.infer<typeof ssoProviderUpdateSchema>,
): Promise<SsoProviderView> {
  const row = await getSsoProviderRow(db, id);
  if (!row) throw new AppError("sso.provider_not_found", "No such provider in the admin area.");
  assertIssuer(input.issuer);
  await assertMapping(db, input.claimMapping);
  await updateSsoProvider(db, id, {
    label: input.label ?? row.label,
    issuer: input.issuer,
    clientId: input.clientId,
    ...(input.clientSecret ? { clientSecretEnc: sealSecret(input.clientSecret) } : {}),
    scopes: normaliseScopes(input.scopes || row.scopes),
    allowedDomains: normaliseDomains(input.allowedDomains),
    claimMapping: input.claimMapping,
  });
  forgetDiscovery(row.issuer);
  await recordAudit(db, {
    actorId: adminId,
    action: "instance.sso_provider_edit",
    target: id,
    detail: { secretReplaced: !!input.clientSecret },
  });
  return (await ssoProviderViews(db)).find((p) => p.id === id) as SsoProviderView;
}

/** Remove an admin-configured provider; its users keep their accounts. Audited. */
export async function removeSsoProvider(db: Db, adminId: string, id: string): Promise<void> {
  if (!(await deleteSsoProvider(db, id))) throw new AppError("sso.provider_not_found", "No such provider in the admin area.");
  await recordAudit(db, { actorId: adminId, action: "instance.sso_provider_remove", target: id });
}
