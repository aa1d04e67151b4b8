export default function ChatPage() {
  return (
    <section className="mx-auto max-w-3xl p-6">
      <h1 className="mb-2 text-xl font-semibold">Chat</h1>
      <p className="text-sm text-zinc-500" data-testid="chat-unavailable">
        The agent chat is not built yet (issue 4). Add MCP servers on the Servers page meanwhile.
      </p>
    </section>
  );
}
