import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getServerById } from "@/db/queries/servers";
import { requirePageWorkspace, slugOf } from "@/lib/auth/workspace";
import { serverView } from "@/lib/servers/service";
import { InspectorView, type InspectorTab } from "@/app/_components/inspector/inspector-view";

const TABS: InspectorTab[] = ["tools", "resources", "prompts", "logs"];

/** The inspector of one server of this workspace (`?tab=tools|resources|prompts|logs`, `&uri=`); others get a 404. */
export default async function ServerInspectorPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; serverId: string }>;
  searchParams: Promise<{ tab?: string; uri?: string }>;
}) {
  const { slug, serverId } = await params;
  const query = await searchParams;
  const caller = await requirePageWorkspace(slug);
  const record = getServerById(getDb(), { id: serverId, workspaceId: caller.workspaceId });
  if (!record) notFound();
  const tab = TABS.find((t) => t === query.tab) ?? "tools";
  return (
    <InspectorView
      server={serverView(record)}
      tab={tab}
      uri={typeof query.uri === "string" ? query.uri : null}
      serversHref={`/w/${slugOf(caller.workspace)}/servers`}
    />
  );
}
