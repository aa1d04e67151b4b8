import Link from "next/link";
import { connection } from "next/server";
import { HydrationMarker } from "@/app/_components/ui/hydration-marker";
import { ForgotPasswordForm } from "@/app/_components/ui/password-reset-forms";
import { mailEnabled } from "@/lib/use-cases/mail-links";

/** "Forgot password?": a reset link by email when the instance sends mail; otherwise, who to ask. */
export default async function ForgotPasswordPage() {
  await connection();
  return (
    <>
      <HydrationMarker />
      {mailEnabled() ? (
        <ForgotPasswordForm />
      ) : (
        <p className="space-y-2 text-sm" data-testid="forgot-no-mail">
          This instance sends no mail: ask an administrator for a password-reset link.{" "}
          <Link className="text-primary underline" href="/signin">
            Back to sign-in
          </Link>
        </p>
      )}
    </>
  );
}
