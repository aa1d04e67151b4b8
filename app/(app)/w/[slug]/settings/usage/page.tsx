import Link from "next/link";
import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { PriceTable } from "@/app/_components/usage/price-table";
import { UsageView } from "@/app/_components/usage/usage-view";

/** Settings › Usage: the caller's tokens, cost and tool calls; the workspace's for its owners and admins; the instance's for administrators. */
export default async function UsageSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  return (
    <div className="space-y-3">
      <h2 className="text-lg font-semibold">Usage</h2>
      <UsageView workspaceId={caller.workspaceId} canSeeWorkspace={caller.role !== "member"} canSeeInstance={caller.isAdmin} />
      {/* The workspace's own prices (for its own keys): its owners and admins set them. */}
      {caller.role !== "member" && <PriceTable workspaceId={caller.workspaceId} scope="workspace" />}
      {caller.isAdmin && (
        <p className="text-sm">
          The instance&apos;s prices and each user&apos;s budget:{" "}
          <Link href="/admin/usage" className="underline">
            Usage settings
          </Link>
          .
        </p>
      )}
    </div>
  );
}
