import { requirePageWorkspace, slugOf } from "@/lib/use-cases/caller";
import { SettingsNav } from "@/app/_components/settings/settings-nav";

/** Settings of one workspace: a heading, the section nav, then the section's own page. */
export default async function SettingsLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  return (
    <section className="mx-auto w-full max-w-4xl min-w-0 space-y-6 p-4 sm:p-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <SettingsNav slug={slugOf(caller.workspace)} />
      <div className="min-w-0 space-y-8">{children}</div>
    </section>
  );
}
