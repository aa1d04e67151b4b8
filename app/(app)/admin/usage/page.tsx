import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/use-cases/caller";
import { BudgetPanel } from "@/app/_components/usage/budget-panel";
import { PriceTable } from "@/app/_components/usage/price-table";
import { UserBudgets } from "@/app/_components/usage/user-budgets";

/**
 * Usage settings of the instance (instance administrators only): the instance's price table, the
 * default budget per user and each user's own budget. They go through the prices and budgets API of
 * the administrator's personal workspace, which accepts instance-wide changes from administrators only.
 */
export default async function UsageAdminPage() {
  const user = await requirePageUser();
  if (!user.isAdmin) notFound();
  return (
    <section className="mx-auto w-full max-w-5xl min-w-0 space-y-6 p-4 sm:p-6">
      <h1 className="text-xl font-semibold">Usage settings</h1>
      <PriceTable workspaceId={user.workspaceId} scope="instance" />
      <BudgetPanel workspaceId={user.workspaceId} />
      <UserBudgets workspaceId={user.workspaceId} />
    </section>
  );
}
