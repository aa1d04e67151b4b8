"use client";

import { signIn, signOut } from "next-auth/react";
import { useState } from "react";
import { api } from "../api-client";

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
        <button type="button" className="btn-secondary" onClick={() => signOut({ callbackUrl: `/invite/${token}` })}>
          Sign out to continue
        </button>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm" data-testid="invitation-summary">
        Invitation for <strong>{invitation.email}</strong> to {what}.
      </p>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      {signedInAs ? (
        <button type="button" className="btn-primary" disabled={busy} onClick={() => run(async () => void (await accept()))}>
          Accept invitation
        </button>
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
            <label className="block">
              <span className="label">Name</span>
              <input className="input" name="name" required maxLength={100} />
            </label>
          )}
          <label className="block">
            <span className="label">Password{mode === "register" ? " (at least 10 characters)" : ""}</span>
            <input
              className="input"
              name="password"
              type="password"
              required
              autoComplete={mode === "register" ? "new-password" : "current-password"}
            />
          </label>
          <button className="btn-primary" type="submit" disabled={busy}>
            {mode === "register" ? "Create account and join" : "Sign in and join"}
          </button>
          <button type="button" className="ml-2 text-sm underline" onClick={() => setMode(mode === "register" ? "signin" : "register")}>
            {mode === "register" ? "I already have an account" : "I need an account"}
          </button>
        </form>
      )}
    </div>
  );
}
