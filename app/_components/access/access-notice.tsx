"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "../ui/primitives/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "../ui/primitives/dialog";
import { useLiveEvents } from "../events/live-events";
import { type AccessLoss, onAccessLoss, reportAccessLoss } from "./access-events";
import { AccessExplanation, accessTitle } from "./access-explanation";
import { hasDraft } from "./drafts";

/**
 * Opens over whatever page is showing when an API call answers with an access code (removed from
 * the workspace, role lowered, account disabled) or when the event stream says the workspace on
 * screen was deleted or the caller's role in it lowered. It says what happened and what to do; what
 * was being typed stays in the composer's draft. A lowered role closes to the page re-rendered for the new role.
 */
export function AccessNotice() {
  const router = useRouter();
  const [loss, setLoss] = useState<(AccessLoss & { draftKept: boolean }) | null>(null);
  useEffect(() => onAccessLoss((next) => setLoss({ ...next, draftKept: hasDraft() })), []);
  useLiveEvents((event) => {
    if (event.type !== "membership" || !event.notice) return;
    // Only the pages of that workspace: another workspace's page is not affected by it.
    const onScreen = document.querySelector<HTMLElement>("[data-workspace-id]")?.dataset.workspaceId;
    if (onScreen === event.workspaceId) reportAccessLoss(event.notice.code, event.notice.message);
  });
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
