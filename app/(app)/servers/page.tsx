import { redirectToWorkspaceSection } from "@/lib/auth/workspace-redirect";

/** `/servers` opens the servers of the current (else the personal) workspace. */
export default async function ServersPage() {
  return redirectToWorkspaceSection("servers");
}
