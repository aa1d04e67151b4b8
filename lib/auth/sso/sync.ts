/**
 * An administrator's "sync now" for one user (docs/sso.md#claims-to-roles): the claim mapping of each
 * provider the user signed in with is applied again to the groups stored at their latest sign-in there,
 * so a mapping just edited takes effect without waiting for the user's next sign-in.
 */
import type { Db } from "../../../db/client";
import { listSsoIdentitiesOfUser } from "../../../db/queries/sso";
import { getUserById } from "../../../db/queries/users";
import type { AccessEffects } from "../../domain/access-effects";
import { AppError } from "../../errors";
import { applyClaimMapping } from "./claim-roles";
import { findSsoProvider } from "./providers";

/** Re-apply the mappings for `userId` as `adminId`; answers the changes made (audited each). */
export async function syncUserFromSso(db: Db, adminId: string, userId: string, effects: AccessEffects): Promise<{ changes: string[] }> {
  if (!(await getUserById(db, userId))) throw new AppError("auth.forbidden", "No such active user.");
  const changes: string[] = [];
  for (const identity of await listSsoIdentitiesOfUser(db, userId)) {
    const provider = await findSsoProvider(db, identity.providerId);
    if (!provider?.claimMapping) continue;
    const result = await applyClaimMapping(
      db,
      userId,
      provider.claimMapping,
      identity.groups,
      { id: adminId, providerId: provider.id },
      effects,
    );
    changes.push(...result.changes);
  }
  return { changes };
}
