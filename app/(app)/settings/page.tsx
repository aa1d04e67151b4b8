import { redirectToWorkspaceSection } from "@/lib/use-cases/caller";

/** `/settings` opens the settings of the current (else the personal) workspace. */
export default async function SettingsPage() {
  return redirectToWorkspaceSection("settings");
}
