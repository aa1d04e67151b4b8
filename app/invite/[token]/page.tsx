import { requireUser } from "@/lib/use-cases/caller";
import { AppError } from "@/lib/errors";
import { invitationByToken } from "@/lib/use-cases/workspaces";
import { InvitationAccept } from "@/app/_components/workspaces/invitation-accept";
import { HydrationMarker } from "@/app/_components/ui/hydration-marker";

/**
 * An invitation link. Signed in as the invited email: accept. Signed out: register (works with
 * registration closed) or sign in, then accept. The token stays in the URL path, never in a log line of ours.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await requireUser().catch((error: unknown) => {
    if (error instanceof AppError && error.code === "auth.unauthorized") return null;
    throw error;
  });
  let invitation: Awaited<ReturnType<typeof invitationByToken>> | null = null;
  let problem: string | null = null;
  try {
    invitation = await invitationByToken(token);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problem = error.message;
  }
  return (
    <main className="mx-auto mt-16 max-w-md space-y-4 p-6">
      <HydrationMarker />
      <h1 className="text-xl font-semibold">Invitation</h1>
      {problem || !invitation ? (
        <p role="alert" data-testid="invitation-problem">
          {problem}
        </p>
      ) : (
        <InvitationAccept
          token={token}
          invitation={{ email: invitation.email, role: invitation.role, workspace: invitation.workspace }}
          signedInAs={user ? { email: user.email, name: user.name } : null}
        />
      )}
    </main>
  );
}
