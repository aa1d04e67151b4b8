import { redirectToWorkspaceSection } from "@/lib/auth/workspace-redirect";

/** `/settings` opens the settings of the current (else the personal) workspace. */
export default async function SettingsPage() {
  return redirectToWorkspaceSection("settings");
}
