import { requirePageWorkspace, slugOf } from "@/lib/use-cases/caller";
import { WorkspaceScope } from "@/app/_components/workspaces/workspace-scope";

/** Every page under `/w/<slug>/` works in that workspace; a non-member gets a 404. */
export default async function WorkspaceLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  return (
    <div data-testid="workspace-page" data-workspace-id={caller.workspaceId}>
      <WorkspaceScope slug={slugOf(caller.workspace)}>{children}</WorkspaceScope>
    </div>
  );
}
