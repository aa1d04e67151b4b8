/**
 * The instance's second-factor policies (docs/second-factors.md#policies): "required for instance
 * administrators" (unset = on as soon as any administrator has enrolled) and "required for everyone".
 * Someone the policy covers who has no factor is sent to enrol before anything else, and an
 * administrator without one never creates stdio servers, whatever the policies say.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { anyAdminHasFactor, hasConfirmedFactor } from "../../db/queries/factors";
import { getInstanceMeta, setInstanceMeta } from "../../db/queries/instance-meta";
import { z } from "zod";
import { AppError } from "../errors";

const ADMINS_KEY = "mfa.required_for_admins";
const EVERYONE_KEY = "mfa.required_for_everyone";

/** The policies in force, and whether the administrators' one was set or follows its default. */
export interface MfaPolicy {
  requiredForAdmins: boolean;
  /** False while nobody has set it: then it is on once any administrator has enrolled. */
  adminsExplicit: boolean;
  requiredForEveryone: boolean;
}

/** The body of `PUT /api/admin/mfa-policy`. */
export const mfaPolicySchema = z.object({ requiredForAdmins: z.boolean(), requiredForEveryone: z.boolean() }).strict();

/** The policies in force. */
export async function mfaPolicy(db: Db): Promise<MfaPolicy> {
  const admins = await getInstanceMeta(db, ADMINS_KEY);
  return {
    requiredForAdmins: admins === null ? await anyAdminHasFactor(db) : admins === "on",
    adminsExplicit: admins !== null,
    requiredForEveryone: (await getInstanceMeta(db, EVERYONE_KEY)) === "on",
  };
}

/** Set both policies (an instance administrator, re-authenticated by the caller); audited. */
export async function setMfaPolicy(db: Db, adminId: string, input: z.infer<typeof mfaPolicySchema>): Promise<MfaPolicy> {
  const before = await mfaPolicy(db);
  await setInstanceMeta(db, ADMINS_KEY, input.requiredForAdmins ? "on" : "off");
  await setInstanceMeta(db, EVERYONE_KEY, input.requiredForEveryone ? "on" : "off");
  const after = await mfaPolicy(db);
  await recordAudit(db, {
    actorId: adminId,
    action: "instance.mfa_policy",
    detail: {
      from: { requiredForAdmins: before.requiredForAdmins, requiredForEveryone: before.requiredForEveryone },
      to: { requiredForAdmins: after.requiredForAdmins, requiredForEveryone: after.requiredForEveryone },
    },
  });
  return after;
}

/** Whether a policy covers this user and they have no factor yet: they must enrol before anything else. */
export async function mustEnrol(db: Db, user: { id: string; isAdmin: boolean }): Promise<boolean> {
  const policy = await mfaPolicy(db);
  if (!policy.requiredForEveryone && !(user.isAdmin && policy.requiredForAdmins)) return false;
  return !(await hasConfirmedFactor(db, user.id));
}

/**
 * Refuse creating a stdio server (a program on the host) for an administrator without a confirmed
 * second factor (`auth.enrolment_required`), whatever the policies: a stolen password alone must
 * never run code on the host.
 */
export async function assertFactorForStdio(db: Db, user: { id: string; isAdmin: boolean }): Promise<void> {
  if (!user.isAdmin || (await hasConfirmedFactor(db, user.id))) return;
  throw new AppError(
    "auth.enrolment_required",
    "Add a second factor to your account (Account › Second factors) before creating a stdio server.",
    "command",
  );
}
