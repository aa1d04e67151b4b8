import Link from "next/link";
import { requirePageWorkspace } from "@/lib/use-cases/caller";

/** Settings › Account: who is signed in, and where to change the password and second factors. */
export default async function AccountSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  return (
    <section className="space-y-4" data-testid="settings-account">
      <h2 className="text-lg font-semibold">Account</h2>
      <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-muted-foreground">Name</dt>
        <dd className="break-words">{caller.name}</dd>
        <dt className="text-muted-foreground">Email</dt>
        <dd className="break-all">{caller.email}</dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd>{caller.isAdmin ? "Instance administrator" : "User"}</dd>
        <dt className="text-muted-foreground">In {caller.workspace.name}</dt>
        <dd>{caller.role}</dd>
      </dl>
      <p className="text-sm">
        <Link className="text-primary underline-offset-4 hover:underline" href="/account">
          Change your password, manage second factors or sign out everywhere
        </Link>
      </p>
    </section>
  );
}
