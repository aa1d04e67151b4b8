import { requirePageUser } from "@/lib/use-cases/caller";
import { myWorkspaces } from "@/lib/use-cases/workspaces";
import { WorkspaceNav } from "@/app/_components/workspaces/workspace-nav";
import { SignOutButton } from "@/app/_components/ui/sign-out-button";
import { PendingCenter } from "@/app/_components/pending/pending-center";
import { AppBrand } from "@/app/_components/ui/app-brand";
import { AccessNotice } from "@/app/_components/access/access-notice";
import { ReauthPrompt } from "@/app/_components/reauth/reauth-prompt";

/**
 * Every signed-in page: a skip link, the header (brand, workspace switcher, sections with the
 * current one marked, the user) in two rows on phones and one from md up, and the pending-request
 * centre that follows the user across pages.
 */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="grid h-[var(--header-h)] shrink-0 grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 border-b border-border bg-surface px-3 py-2 md:flex md:gap-5 md:px-6">
        <AppBrand />
        <WorkspaceNav workspaces={await myWorkspaces(user.id)} isAdmin={user.isAdmin} />
        <div className="col-start-3 row-start-1 flex min-w-0 items-center gap-2 text-sm md:ml-auto">
          <span data-testid="current-user" className="flex min-w-0 items-center gap-2 text-muted-foreground">
            {/* The name gives way on phones; the admin badge stays. */}
            <span className="hidden max-w-[10rem] truncate sm:inline">{user.name}</span>
            {user.isAdmin && (
              <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">admin</span>
            )}
          </span>
          <SignOutButton />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex min-h-0 min-w-0 flex-1 flex-col focus:outline-none">
        {children}
      </main>
      <PendingCenter />
      <AccessNotice />
      <ReauthPrompt />
    </div>
  );
}
