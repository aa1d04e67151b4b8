import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/use-cases/caller";
import { AdminView } from "@/app/_components/admin/admin-view";
import { MfaPolicyForm } from "@/app/_components/factors/mfa-policy-form";
import { instanceMfaPolicy } from "@/lib/use-cases/second-factors";

/** Instance administration: second-factor policies, users, workspaces, audit log (instance administrators only). */
export default async function AdminPage() {
  const user = await requirePageUser();
  if (!user.isAdmin) notFound();
  return (
    <>
      <div className="mx-auto w-full max-w-5xl min-w-0 px-4 pt-4 sm:px-6">
        <MfaPolicyForm initial={instanceMfaPolicy()} />
      </div>
      <AdminView meId={user.id} />
    </>
  );
}
