"use client";

import { Button } from "../ui/primitives/button";

/** The ten recovery codes, shown once after a first factor is added; `what` says which factor was added. */
export function RecoveryCodesShown({ codes, what, onDone }: { codes: string[]; what: string; onDone: () => void }) {
  return (
    <div className="space-y-2" data-testid="recovery-codes">
      <p className="text-sm">
        {what} These recovery codes each sign you in once if you lose it; they are shown only now. Keep them somewhere safe.
      </p>
      <ul className="grid grid-cols-2 gap-1 rounded border border-border p-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}
