"use client";

import { signIn, signOut } from "next-auth/react";
import { useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { NewPasswordInput } from "../ui/password-meter";
import { FieldError, Label } from "../ui/primitives/label";

interface Props {
  token: string;
  invitation: { email: string; role: string; workspace: { id: string; name: string; slug: string | null } | null };
  signedInAs: { email: string; name: string } | null;
}

/** Accept (signed in), or register / sign in with the invited email and then accept. */
export function InvitationAccept({ token, invitation, signedInAs }: Props) {
  const [mode, setMode] = useState<"register" | "signin">("register");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = invitation.workspace ? `/w/${invitation.workspace.slug ?? "personal"}/chat` : "/w/personal/chat";
  const what = invitation.workspace ? `join ${invitation.workspace.name} as ${invitation.role}` : "create your account";

  async function run(fn: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
      window.location.assign(target);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }
  const accept = () => api(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: "POST" });

  if (signedInAs && signedInAs.email !== invitation.email) {
    return (
      <div className="space-y-3 text-sm">
        <p role="alert">
          This invitation is for {invitation.email}; you are signed in as {signedInAs.email}.
        </p>
        <Button type="button" variant="secondary" onClick={() => signOut({ callbackUrl: `/invite/${token}` })}>
          Sign out to continue
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm" data-testid="invitation-summary">
        Invitation for <strong>{invitation.email}</strong> to {what}.
      </p>
      {error && <FieldError role="alert">{error}</FieldError>}
      {signedInAs ? (
        <Button type="button" disabled={busy} onClick={() => run(async () => void (await accept()))}>
          Accept invitation
        </Button>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            const password = String(form.get("password") ?? "");
            void run(async () => {
              if (mode === "register") {
                await api(`/api/invitations/${encodeURIComponent(token)}/register`, {
                  method: "POST",
                  json: { name: form.get("name"), password },
                });
              }
              const result = await signIn("credentials", { email: invitation.email, password, redirect: false });
              if (!result?.ok || result.error) throw new Error("Sign-in failed: check the password.");
              if (mode === "signin" && invitation.workspace) await accept();
            });
          }}
        >
          {mode === "register" && (
            <Label className="mb-0">
              <span className="mb-1 block">Name</span>
              <Input name="name" required maxLength={100} />
            </Label>
          )}
          <Label className="mb-0">
            <span className="mb-1 block">Password{mode === "register" ? " (at least 10 characters)" : ""}</span>
            {mode === "register" ? (
              <NewPasswordInput name="password" required userInputs={[invitation.email]} />
            ) : (
              <Input name="password" type="password" required autoComplete="current-password" />
            )}
          </Label>
          <Button type="submit" disabled={busy}>
            {mode === "register" ? "Create account and join" : "Sign in and join"}
          </Button>
          <Button
            type="button"
            variant="link"
            className="ml-2 h-auto px-0 underline"
            onClick={() => setMode(mode === "register" ? "signin" : "register")}
          >
            {mode === "register" ? "I already have an account" : "I need an account"}
          </Button>
        </form>
      )}
    </div>
  );
}
