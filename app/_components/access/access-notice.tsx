"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "../ui/primitives/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "../ui/primitives/dialog";
import { type AccessLoss, onAccessLoss } from "./access-events";
import { AccessExplanation, accessTitle } from "./access-explanation";
import { hasDraft } from "./drafts";

/**
 * Opens over whatever page is showing when an API call answers with an access code: removed from
 * the workspace, role lowered, account disabled. It says what happened and what to do; what was
 * being typed stays in the composer's draft. A lowered role closes to the page re-rendered for the new role.
 */
export function AccessNotice() {
  const router = useRouter();
  const [loss, setLoss] = useState<(AccessLoss & { draftKept: boolean }) | null>(null);
  useEffect(() => onAccessLoss((next) => setLoss({ ...next, draftKept: hasDraft() })), []);
  if (!loss) return null;
  const close = () => {
    setLoss(null);
    // The page was rendered for the old role: show it as the new one allows.
    if (loss.code === "workspace.role_changed") router.refresh();
  };
  const blocking = loss.code !== "workspace.role_changed";
  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent
        data-testid="access-notice"
        aria-describedby={undefined}
        hideClose={blocking}
        onEscapeKeyDown={(e) => blocking && e.preventDefault()}
        onInteractOutside={(e) => blocking && e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{accessTitle(loss.code)}</DialogTitle>
        </DialogHeader>
        <AccessExplanation code={loss.code} message={loss.message} draftKept={loss.draftKept} />
        {!blocking && (
          <DialogFooter>
            <Button onClick={close}>Show the page for my role</Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
