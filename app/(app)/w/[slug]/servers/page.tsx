import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { workspaceServers } from "@/lib/use-cases/saved-servers";
import { ServersView } from "@/app/_components/servers/servers-view";
import { SharedServersNote } from "@/app/_components/workspaces/shared-servers-note";

/** The workspace's servers: owners/admins manage them, members see and use them. */
export default async function WorkspaceServersPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  const servers = await workspaceServers(caller);
  return (
    <>
      <SharedServersNote servers={servers} role={caller.role} />
      <ServersView initialServers={servers} isAdmin={caller.isAdmin} role={caller.role} />
    </>
  );
}
