import { notFound } from "next/navigation";
import { redirectToChat } from "@/lib/use-cases/caller";

/** `/chat/:id` opens the chat in its workspace; anyone else's chat is a 404. */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  await redirectToChat((await params).id);
  notFound();
}
