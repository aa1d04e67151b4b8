import { PasswordForm, SignOutEverywhereButton } from "@/app/_components/ui/account-forms";
import { requirePageUser } from "@/lib/auth/session";

/** The signed-in user's own account: password and sessions. */
export default async function AccountPage() {
  const user = await requirePageUser();
  return (
    <section className="mx-auto max-w-xl space-y-8 p-6">
      <h1 className="text-xl font-semibold">Account</h1>
      <p className="text-sm text-zinc-500">Signed in as {user.email}</p>
      <PasswordForm />
      <SignOutEverywhereButton />
    </section>
  );
}
