import { redirect } from "next/navigation";

/** `/w/<slug>/settings` opens its first section, so links to the old single page keep working. */
export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  redirect(`/w/${encodeURIComponent((await params).slug)}/settings/account`);
}
