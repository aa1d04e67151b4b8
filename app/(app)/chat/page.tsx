import { redirectToWorkspaceSection } from "@/lib/use-cases/caller";

/** `/chat` opens the chat of the current (else the personal) workspace. */
export default async function ChatIndexPage() {
  return redirectToWorkspaceSection("chat");
}
