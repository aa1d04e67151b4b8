import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { AuditLog } from "@/app/_components/admin/audit-log";

/** Settings › Audit: the workspace's audit log (owners and admins; members are told who can read it). */
export default async function AuditSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  if (caller.role === "member") {
    return (
      <p className="text-sm text-muted-foreground" data-testid="audit-not-allowed">
        Only the owners and admins of {caller.workspace.name} can read its audit log.
      </p>
    );
  }
  return <AuditLog source={`/api/workspaces/${caller.workspaceId}/audit`} />;
}
