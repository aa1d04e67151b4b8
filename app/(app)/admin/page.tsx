import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/use-cases/caller";
import { AdminView } from "@/app/_components/admin/admin-view";
import { MfaPolicyForm } from "@/app/_components/factors/mfa-policy-form";
import { ReplicasAdmin } from "@/app/_components/admin/replicas-admin";
import { SsoAdmin } from "@/app/_components/admin/sso-admin";
import { instanceMfaPolicy } from "@/lib/use-cases/second-factors";

/** Instance administration: second-factor policies, single sign-on, replicas, users, workspaces, audit log (instance administrators only). */
export default async function AdminPage() {
  const user = await requirePageUser();
  if (!user.isAdmin) notFound();
  return (
    <AdminView
      meId={user.id}
      policies={
        <>
          <MfaPolicyForm initial={await instanceMfaPolicy()} />
          <SsoAdmin />
          <p className="text-sm">
            <Link href="/admin/usage" className="underline">
              Usage settings
            </Link>
            : the price table and the budgets per user.
          </p>
          <ReplicasAdmin />
        </>
      }
    />
  );
}
