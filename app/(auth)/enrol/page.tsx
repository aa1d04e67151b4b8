import { connection } from "next/server";
import { EnrolmentRequired } from "@/app/_components/factors/enrolment-required";
import { requireEnrollingUser } from "@/lib/use-cases/caller";
import { enrolmentDue } from "@/lib/use-cases/second-factors";

/**
 * Where a user a second-factor policy covers lands until they have a factor (lib/auth/session.ts
 * sends every signed-in page here first): add an authenticator app or a passkey, keep the recovery codes, go on.
 */
export default async function EnrolPage() {
  await connection();
  const user = await requireEnrollingUser();
  return <EnrolmentRequired email={user.email} required={await enrolmentDue(user)} />;
}
