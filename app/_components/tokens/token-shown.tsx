"use client";

import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { toast } from "../ui/primitives/toast";

/** A new token's secret, shown this once with a copy button; Done forgets it. */
export function TokenShown({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const copy = () =>
    navigator.clipboard?.writeText(secret).then(
      () => toast.success("Token copied"),
      () => toast.error("Could not copy: select the token and copy it."),
    );
  return (
    <div className="space-y-2 rounded-md border border-border p-3" data-testid="token-shown">
      <p className="text-sm font-medium" role="status">
        Token “{name}” made. Copy it now: you will not see it again.
      </p>
      <Label htmlFor="new-token-secret">Your new token</Label>
      <div className="flex flex-wrap gap-2">
        <Input id="new-token-secret" readOnly value={secret} className="flex-1 font-mono" onFocus={(e) => e.currentTarget.select()} />
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      <Button type="button" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
