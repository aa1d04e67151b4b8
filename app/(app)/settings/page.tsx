import { requirePageUser } from "@/lib/auth/session";
import { ModelSettingsForm } from "@/app/_components/settings/model-settings-form";
import { ToolPolicies } from "@/app/_components/settings/tool-policies";

/** Profile, the user's own model and tool approval policies. */
export default async function SettingsPage() {
  const user = await requirePageUser();
  return (
    <section className="mx-auto max-w-3xl space-y-8 p-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <dl className="grid grid-cols-[8rem_1fr] gap-2 text-sm">
        <dt className="text-zinc-500">Name</dt>
        <dd>{user.name}</dd>
        <dt className="text-zinc-500">Email</dt>
        <dd>{user.email}</dd>
        <dt className="text-zinc-500">Role</dt>
        <dd>{user.isAdmin ? "Instance administrator" : "User"}</dd>
      </dl>
      <ModelSettingsForm />
      <ToolPolicies />
    </section>
  );
}
