import { connection } from "next/server";
import { SignInForm } from "@/app/_components/ui/sign-in-form";
import { SsoButtons } from "@/app/_components/ui/sso-buttons";
import { freshInstance } from "@/lib/use-cases/account";
import { signInReturnPath } from "@/lib/use-cases/caller";
import { mailEnabled } from "@/lib/use-cases/mail-links";
import { signInOptions } from "@/lib/use-cases/sso";

// `?reason=disabled`: a page of a disabled account was sent here (lib/auth/session.ts); the form says why.
// `?error=`: a single sign-on came back refused (docs/sso.md); `?step=code`: it owes a second factor.
// `?password=1`: the password form in SSO-only mode, for the break-glass administrator.
// `?next=`: where to go once signed in (only the pages lib/auth/return-path.ts allows; else /chat).
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string; error?: string; step?: string; password?: string; next?: string }>;
}) {
  await connection();
  const { reason, error, step, password, next } = await searchParams;
  const returnTo = signInReturnPath(next) ?? undefined;
  const sso = await signInOptions();
  const codeFirst = step === "code";
  const showPassword = !sso.passwordsOff || password === "1" || codeFirst;
  return (
    <>
      {!codeFirst && <SsoButtons providers={sso.providers} error={error} passwordsOff={!showPassword} returnTo={returnTo} />}
      {showPassword && (
        <SignInForm
          fresh={await freshInstance()}
          disabled={reason === "disabled"}
          forgotPassword={mailEnabled()}
          codeFirst={codeFirst}
          returnTo={returnTo}
        />
      )}
    </>
  );
}
