import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { ModelSettingsForm } from "@/app/_components/settings/model-settings-form";

/** Settings › Model: the caller's own model, and which model a chat uses when several are set. */
export default async function ModelSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  return (
    <section className="space-y-4" data-testid="settings-model">
      {/* The order lib/models/user-model.ts#userModelResolution applies. */}
      <p className="rounded-md border border-border bg-surface p-3 text-sm" data-testid="model-precedence">
        Your own model wins: when you choose a provider and model here, your chats in every workspace use it; leave them empty and chats in{" "}
        {caller.workspace.name} use the workspace's default model (Settings › Workspace), and without one the instance's default.
      </p>
      <ModelSettingsForm />
    </section>
  );
}
