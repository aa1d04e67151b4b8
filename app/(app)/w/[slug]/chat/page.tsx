import { requirePageWorkspace, slugOf } from "@/lib/use-cases/caller";
import { chatIndexPage } from "@/lib/use-cases/chats";
import { ChatShell } from "@/app/_components/chat/chat-shell";
import { LandingComposer } from "@/app/_components/chat/landing-composer";

/** The caller's chats in this workspace; a conversation opens at /w/<slug>/chat/:id. */
export default async function WorkspaceChatIndexPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  const { chats, model, servers } = await chatIndexPage(caller);
  const slug = slugOf(caller.workspace);
  return (
    <ChatShell chats={chats} title={<h1 className="font-semibold">Chat</h1>}>
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-4 sm:p-6">
        {chats.length === 0 && (
          <div data-testid="chat-welcome" className="max-w-prose space-y-2 rounded-lg border border-border bg-surface p-4 text-sm">
            <h2 className="text-base font-semibold">Welcome to Switchboard</h2>
            <p>Your agent answers with the tools, resources and prompts of this workspace&apos;s MCP servers. To begin:</p>
            <ol className="list-decimal space-y-1 pl-5">
              <li>
                {model.ok ? "A model is set up." : "Choose a model and key in "}
                {!model.ok && (
                  <a href={`/w/${slug}/settings`} className="text-primary underline">
                    Settings
                  </a>
                )}
              </li>
              <li>
                {servers > 0 ? `${servers} server${servers === 1 ? "" : "s"} added. ` : "Add an MCP server in "}
                {servers === 0 && (
                  <a href={`/w/${slug}/servers`} className="text-primary underline">
                    Servers
                  </a>
                )}
              </li>
              <li>Type below to start a chat; type / for a server&apos;s prompts or attach its resources.</li>
            </ol>
          </div>
        )}
        {model.ok ? (
          chats.length > 0 && <p className="text-sm text-muted-foreground">Type below to start a new chat, or open one from the list.</p>
        ) : (
          <p data-testid="model-missing" className="text-sm text-amber-900 dark:text-amber-200">
            {model.reason}{" "}
            <a href={`/w/${slug}/settings`} className="underline">
              Open Settings
            </a>
          </p>
        )}
      </div>
      <LandingComposer disabled={!model.ok} />
    </ChatShell>
  );
}
