import { getDb } from "@/db/client";
import { requirePageUser } from "@/lib/auth/session";
import { listServers } from "@/lib/servers/service";
import { ServersView } from "@/app/_components/servers/servers-view";

export default async function ServersPage() {
  const user = await requirePageUser();
  const servers = listServers(getDb(), user);
  return <ServersView initialServers={servers} isAdmin={user.isAdmin} />;
}
