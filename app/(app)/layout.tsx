import { getDb } from "@/db/client";
import { requirePageUser } from "@/lib/auth/session";
import { listMyWorkspaces } from "@/lib/workspaces/service";
import { WorkspaceNav } from "@/app/_components/workspaces/workspace-nav";
import { SignOutButton } from "@/app/_components/ui/sign-out-button";
import { PendingCenter } from "@/app/_components/pending/pending-center";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center gap-6 border-b border-zinc-200 bg-white px-6 py-3 dark:border-zinc-800 dark:bg-zinc-900">
        <span className="font-semibold">Switchboard</span>
        <WorkspaceNav workspaces={listMyWorkspaces(getDb(), user.id)} isAdmin={user.isAdmin} />
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span data-testid="current-user" className="text-zinc-500">
            {user.name}
            {user.isAdmin && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">admin</span>}
          </span>
          <SignOutButton />
        </div>
      </header>
      <main className="flex-1">{children}</main>
      <PendingCenter />
    </div>
  );
}
