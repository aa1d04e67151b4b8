import { redirect } from "next/navigation";
import { AccessExplanation, accessTitle } from "@/app/_components/access/access-explanation";
import { lostWorkspaceAccess, requirePageUser } from "@/lib/use-cases/caller";

/**
 * Where a page of a workspace the person was removed from sends them: who removed them, when, and
 * where to go. Only the removed person sees it (from their own audit entry); anyone else is sent to
 * the workspace's own pages (a member again goes back in, a stranger meets its 404).
 */
export default async function AccessPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser();
  const slug = decodeURIComponent((await params).slug);
  const lost = await lostWorkspaceAccess(user, slug);
  // A member again goes back in; someone who never was one meets the workspace's own 404 there.
  if (!lost) redirect(`/w/${encodeURIComponent(slug)}/chat`);
  const code = "workspace.removed";
  return (
    <div className="mx-auto w-full max-w-xl p-4 sm:p-8" data-testid="access-page">
      <h1 className="mb-3 text-lg font-semibold">{accessTitle(code)}</h1>
      <AccessExplanation code={code} message={lost.message} />
    </div>
  );
}
