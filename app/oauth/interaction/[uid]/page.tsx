import { headers } from "next/headers";
import { connection } from "next/server";
import { ConsentActions } from "@/app/_components/oauth/consent-actions";
import { AppBrand } from "@/app/_components/ui/app-brand";
import { consentPage } from "@/lib/use-cases/oauth-server";

/**
 * The consent page of Switchboard's authorization server (docs/gateway.md#the-authorization-server):
 * an MCP client asks to act for the signed-in user at one gateway endpoint. It shows the client's
 * self-declared name, where the answer goes back to, the workspace and server, and the scope, with
 * Allow and Deny; a user who may not grant it (not a member) gets Deny only. Signed out: to /signin
 * and back here.
 */
export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  await connection();
  const { uid } = await params;
  const { user, view } = await consentPage(uid, await headers());
  return (
    <main className="flex min-h-dvh items-center justify-center p-4 sm:p-6">
      <div className="w-full max-w-md min-w-0 space-y-5 rounded-xl border border-border bg-surface p-6 shadow-sm">
        <p className="text-xl">
          <AppBrand />
        </p>
        {!view ? (
          <>
            <h1 className="text-lg font-semibold">This sign-in is no longer open</h1>
            <p className="text-sm text-muted-foreground">It expired or was already answered. Start it again from your MCP client.</p>
          </>
        ) : (
          <>
            <h1 className="text-lg font-semibold" data-testid="consent-title">
              Allow <span className="break-words">{view.clientName ?? "an unnamed client"}</span> to use Switchboard as you?
            </h1>
            <p className="text-sm text-muted-foreground">
              Signed in as <span className="break-all">{user.email}</span>. The client&apos;s name is what the client says it is:
              Switchboard has not checked it.
            </p>
            <dl className="space-y-3 text-sm" data-testid="consent-details">
              <div>
                <dt className="font-medium">Client (self-declared name)</dt>
                <dd className="break-words">{view.clientName ?? "No name given"}</dd>
                <dd className="break-all text-xs text-muted-foreground">{view.clientId}</dd>
              </div>
              <div>
                <dt className="font-medium">Sends the answer to</dt>
                <dd className="break-all font-mono text-xs">{view.redirectUri}</dd>
              </div>
              <div>
                <dt className="font-medium">May use</dt>
                <dd className="break-words">
                  {view.workspaceName
                    ? view.serverName
                      ? `The server "${view.serverName}" of the workspace ${view.workspaceName}`
                      : `Every server of the workspace ${view.workspaceName}`
                    : "—"}
                </dd>
                {view.resource && <dd className="break-all font-mono text-xs text-muted-foreground">{view.resource}</dd>}
              </div>
              <div>
                <dt className="font-medium">Scope</dt>
                <dd>
                  {view.scopes.join(" ")}: call tools, read resources and use prompts as you, with your connections, under the
                  workspace&apos;s approvals.
                </dd>
              </div>
            </dl>
            {view.refusal && (
              <p role="alert" className="rounded-md border border-border bg-muted p-3 text-sm" data-testid="consent-refusal">
                {view.refusal}
              </p>
            )}
            <ConsentActions uid={view.uid} canAllow={!view.refusal} />
          </>
        )}
      </div>
    </main>
  );
}
