import { PasswordForm, SignOutEverywhereButton } from "@/app/_components/ui/account-forms";
import { requirePageUser } from "@/lib/use-cases/caller";
import { headers } from "next/headers";
import { publicUrlInUse } from "@/lib/use-cases/account";
import { SecondFactors } from "@/app/_components/factors/second-factors";
import { myFactors } from "@/lib/use-cases/second-factors";
import { PersonalTokens } from "@/app/_components/tokens/personal-tokens";
import { myTokens } from "@/lib/use-cases/personal-tokens";
import { myWorkspaces } from "@/lib/use-cases/workspaces";
import { ConnectedClients } from "@/app/_components/oauth/connected-clients";
import { myConnectedClients } from "@/lib/use-cases/oauth-server";

/** The signed-in user's own account: password, second factors, personal access tokens, connected OAuth clients and sessions; administrators also see the public URL in use. */
export default async function AccountPage() {
  const user = await requirePageUser();
  const publicUrl = user.isAdmin ? publicUrlInUse(await headers()) : null;
  const { factors, recoveryCodesLeft } = await myFactors(user);
  return (
    <section className="mx-auto w-full max-w-xl min-w-0 space-y-8 p-4 sm:p-6">
      <h1 className="text-xl font-semibold">Account</h1>
      <p className="break-all text-sm text-muted-foreground">Signed in as {user.email}</p>
      <PasswordForm />
      <SecondFactors
        factors={factors.map((f) => ({
          id: f.id,
          kind: f.kind,
          name: f.name,
          createdAt: f.createdAt.toISOString(),
          lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
        }))}
        recoveryCodesLeft={recoveryCodesLeft}
      />
      <PersonalTokens
        tokens={(await myTokens(user)).map((t) => ({
          id: t.id,
          name: t.name,
          hint: t.hint,
          workspaceName: t.workspaceName,
          scopes: t.scopes,
          expiresAt: t.expiresAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          state: t.state,
        }))}
        workspaces={(await myWorkspaces(user.id)).map((w) => ({ id: w.id, name: w.personal ? "Personal" : w.name }))}
      />
      <ConnectedClients
        clients={(await myConnectedClients(user)).map((c) => ({
          id: c.id,
          clientName: c.clientName,
          clientId: c.clientId,
          workspaceName: c.workspaceName,
          serverName: c.serverName,
          createdAt: c.createdAt.toISOString(),
          lastUsedAt: c.lastUsedAt?.toISOString() ?? null,
        }))}
      />
      <SignOutEverywhereButton />
      {publicUrl && (
        <div className="space-y-1 text-sm" data-testid="public-url">
          <h2 className="text-lg font-medium">Public URL</h2>
          <p>
            OAuth redirects from this address use <code className="break-all">{publicUrl.callbackUrl}</code>.
          </p>
          {!publicUrl.configured && (
            <p className="text-muted-foreground">
              SWITCHBOARD_PUBLIC_URL is not set: the app answers on loopback addresses only. Set it to the address you serve the app at.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
