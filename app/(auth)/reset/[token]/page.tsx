import { connection } from "next/server";
import { HydrationMarker } from "@/app/_components/ui/hydration-marker";
import { ResetPasswordForm } from "@/app/_components/ui/password-reset-forms";
import { AppError } from "@/lib/errors";
import { passwordResetFor } from "@/lib/use-cases/mail-links";

/** A password-reset link: the new-password form, or why the link no longer works. The token stays in the path, never in a log line of ours. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  let reset: { email: string } | null = null;
  let problem: string | null = null;
  try {
    reset = await passwordResetFor(token);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problem = error.message;
  }
  return (
    <>
      <HydrationMarker />
      {reset ? (
        <ResetPasswordForm token={token} email={reset.email} />
      ) : (
        <p role="alert" data-testid="reset-problem">
          {problem}
        </p>
      )}
    </>
  );
}
