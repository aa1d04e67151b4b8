import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { ToolPolicies } from "@/app/_components/settings/tool-policies";
import { WorkspaceSettings } from "@/app/_components/workspaces/workspace-settings";

/** Settings › Workspace: members and invitations, default model, tool search, tool policies. */
export default async function WorkspaceSectionPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  const w = caller.workspace;
  return (
    <>
      <WorkspaceSettings workspace={{ id: w.id, name: w.name, personal: w.personal }} me={{ id: caller.id, role: caller.role }} />
      {/* Keyed by role: a live role change re-renders this page, and the table must re-read what the role may set. */}
      <ToolPolicies key={caller.role} />
    </>
  );
}
