import { notFound } from "next/navigation";
import { requirePageWorkspace, slugOf } from "@/lib/use-cases/caller";
import { inspectedServer } from "@/lib/use-cases/saved-servers";
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
  const server = await inspectedServer(caller, serverId);
  if (!server) notFound();
  const tab = TABS.find((t) => t === query.tab) ?? "tools";
  return (
    <InspectorView
      server={server}
      tab={tab}
      uri={typeof query.uri === "string" ? query.uri : null}
      serversHref={`/w/${slugOf(caller.workspace)}/servers`}
    />
  );
}
