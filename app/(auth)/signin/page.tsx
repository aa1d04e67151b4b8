import { connection } from "next/server";
import { SignInForm } from "@/app/_components/ui/sign-in-form";
import { freshInstance } from "@/lib/use-cases/account";
import { mailEnabled } from "@/lib/use-cases/mail-links";

// `?reason=disabled`: a page of a disabled account was sent here (lib/auth/session.ts); the form says why.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ reason?: string }> }) {
  await connection();
  const { reason } = await searchParams;
  return <SignInForm fresh={freshInstance()} disabled={reason === "disabled"} forgotPassword={mailEnabled()} />;
}
