import { redirectToWorkspaceSection } from "@/lib/use-cases/caller";

/** `/servers` opens the servers of the current (else the personal) workspace. */
export default async function ServersPage() {
  return redirectToWorkspaceSection("servers");
}
