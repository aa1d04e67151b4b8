import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { ModelSettingsForm } from "@/app/_components/settings/model-settings-form";
import { ToolPolicies } from "@/app/_components/settings/tool-policies";
import { WorkspaceSettings } from "@/app/_components/workspaces/workspace-settings";

/** The caller's profile, own model and tool policies, and this workspace's members and settings. */
export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  const w = caller.workspace;
  return (
    <section className="mx-auto max-w-3xl space-y-8 p-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <dl className="grid grid-cols-[8rem_1fr] gap-2 text-sm">
        <dt className="text-muted-foreground">Name</dt>
        <dd>{caller.name}</dd>
        <dt className="text-muted-foreground">Email</dt>
        <dd>{caller.email}</dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd>{caller.isAdmin ? "Instance administrator" : "User"}</dd>
      </dl>
      <WorkspaceSettings workspace={{ id: w.id, name: w.name, personal: w.personal }} me={{ id: caller.id, role: caller.role }} />
      <ModelSettingsForm />
      <ToolPolicies />
    </section>
  );
}
