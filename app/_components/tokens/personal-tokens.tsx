"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { type TokenItem, TokenList } from "./token-list";
import { TokenShown } from "./token-shown";

export type { TokenItem } from "./token-list";

/** The scopes a token may have, with what each lets a client do. */
const SCOPES = [
  { value: "api:read", label: "api:read — read the catalog (/v0.1) and the REST API" },
  { value: "api:write", label: "api:write — change things through the REST API" },
  { value: "mcp", label: "mcp — the workspace's MCP endpoints" },
];
const LIFETIMES = [7, 30, 90, 365];

/**
 * Account › Personal access tokens: the caller's tokens, a form to make one for a workspace with
 * scopes and an expiry (its secret shown once), and revocation.
 */
export function PersonalTokens({ tokens, workspaces }: { tokens: TokenItem[]; workspaces: { id: string; name: string }[] }) {
  const router = useRouter();
  const [shown, setShown] = useState<{ name: string; secret: string } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [round, setRound] = useState(0);

  async function create(form: FormData) {
    setError(null);
    const scopes = form.getAll("scopes").map(String);
    if (scopes.length === 0) return setError({ message: "Choose at least one scope.", field: "scopes" });
    try {
      const made = await api<{ name: string; secret: string }>("/api/account/tokens", {
        method: "POST",
        json: {
          name: String(form.get("name")),
          workspaceId: String(form.get("workspaceId")),
          scopes,
          expiresInDays: Number(form.get("expiresInDays")),
        },
      });
      setShown({ name: made.name, secret: made.secret });
      setRound(round + 1);
      router.refresh();
    } catch (caught) {
      setError(caught instanceof ApiError ? { message: caught.message, field: caught.field } : { message: "The token could not be made." });
    }
  }

  async function revoke(id: string) {
    setError(null);
    try {
      await api(`/api/account/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
      router.refresh();
    } catch (caught) {
      setError({ message: caught instanceof ApiError ? caught.message : "The token could not be revoked." });
    }
  }

  return (
    <div className="space-y-3" data-testid="personal-tokens">
      <h2 className="text-lg font-medium">Personal access tokens</h2>
      <p className="text-sm text-muted-foreground">
        For scripts and clients that cannot sign in with a browser: send one as <code>Authorization: Bearer …</code>. Each works for one
        workspace and stops when it expires, when you revoke it, or when you leave the workspace.
      </p>
      <TokenList tokens={tokens} onRevoke={revoke} />
      {shown && <TokenShown name={shown.name} secret={shown.secret} onDone={() => setShown(null)} />}
      <form
        key={round}
        method="post"
        aria-labelledby="new-token-heading"
        className="space-y-3 rounded-md border border-border p-3"
        onSubmit={(event) => {
          event.preventDefault();
          void create(new FormData(event.currentTarget));
        }}
      >
        <h3 id="new-token-heading" className="font-medium">
          New token
        </h3>
        <div className="space-y-1">
          <Label htmlFor="token-name">Name</Label>
          <Input
            id="token-name"
            name="name"
            required
            maxLength={80}
            placeholder="e.g. laptop editor"
            aria-invalid={error?.field === "name"}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="token-workspace">Workspace</Label>
          <NativeSelect id="token-workspace" name="workspaceId" defaultValue={workspaces[0]?.id}>
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium">Scopes</legend>
          {SCOPES.map((scope) => (
            <ChoiceLabel key={scope.value}>
              <Checkbox name="scopes" value={scope.value} defaultChecked={scope.value === "api:read"} />
              {scope.label}
            </ChoiceLabel>
          ))}
        </fieldset>
        <div className="space-y-1">
          <Label htmlFor="token-expiry">Expires after</Label>
          <NativeSelect id="token-expiry" name="expiresInDays" defaultValue="30">
            {LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </NativeSelect>
        </div>
        {error && <FieldError role="alert">{error.message}</FieldError>}
        <Button type="submit">Make token</Button>
      </form>
    </div>
  );
}
