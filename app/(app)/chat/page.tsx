import { redirectToWorkspaceSection } from "@/lib/auth/workspace-redirect";

/** `/chat` opens the chat of the current (else the personal) workspace. */
export default async function ChatIndexPage() {
  return redirectToWorkspaceSection("chat");
}
