/**
 * Claims to roles for a provider of the environment (docs/sso.md#claims-to-roles):
 * `SWITCHBOARD_OIDC_<NAME>_ROLES_CLAIM` names the claim, and `SWITCHBOARD_OIDC_<NAME>_ROLES` maps its
 * values, `;`-separated entries `<group>=instance-admin` or `<group>=<workspace>:<role>` (the workspace
 * by slug or id). Parsed at start-up: a wrong entry stops it with the variable and the entry named.
 */
import type { SsoClaimMapping, SsoWorkspaceMapping } from "../../../db/queries/sso";

const ROLES = ["owner", "admin", "member"] as const;
const ADMIN_GRANT = "instance-admin";

/**
 * The mapping of `claim` and `roles` (the raw values of the two variables of provider `name`), or null
 * when neither is set. Throws an Error naming the variable when only one is set or an entry is malformed.
 * The workspaces are kept as written (slug or id); lib/auth/sso/providers.ts resolves them.
 */
export function parseEnvClaimMapping(name: string, claim: string, roles: string): SsoClaimMapping | null {
  const prefix = `SWITCHBOARD_OIDC_${name}`;
  if (!claim && !roles) return null;
  if (!claim) throw new Error(`${prefix}_ROLES: set ${prefix}_ROLES_CLAIM too (the claim whose values it maps, for example groups).`);
  if (!roles)
    throw new Error(`${prefix}_ROLES_CLAIM: set ${prefix}_ROLES too (entries like "admins=instance-admin; eng=engineering:member").`);
  if (claim.length > 100) throw new Error(`${prefix}_ROLES_CLAIM: a claim name of at most 100 characters.`);
  const adminGroups: string[] = [];
  const workspaces: SsoWorkspaceMapping[] = [];
  const entries = roles
    .split(";")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const refused = (why: string) =>
      new Error(
        `${prefix}_ROLES: "${entry}" ${why} (each entry is <group>=${ADMIN_GRANT} or <group>=<workspace slug or id>:<owner|admin|member>).`,
      );
    // The grant follows the last "=": a group may hold "=" itself (an LDAP DN such as cn=eng,ou=groups).
    const at = entry.lastIndexOf("=");
    const group = entry.slice(0, at).trim();
    const grant = entry.slice(at + 1).trim();
    if (at < 0 || !group || !grant) throw refused("has no group or no grant");
    if (grant === ADMIN_GRANT) {
      adminGroups.push(group);
      continue;
    }
    const colon = grant.lastIndexOf(":");
    const workspace = grant.slice(0, colon).trim();
    const role = grant.slice(colon + 1).trim();
    if (colon < 0) throw refused("has no :<role> after the workspace");
    if (!workspace) throw refused("names no workspace");
    if (!(ROLES as readonly string[]).includes(role)) throw refused(`has the role "${role}"`);
    workspaces.push({ group, workspaceId: workspace, role: role as SsoWorkspaceMapping["role"] });
  }
  if (!adminGroups.length && !workspaces.length) throw new Error(`${prefix}_ROLES: no entry (for example "admins=instance-admin").`);
  return { claim, adminGroups, workspaces };
}
