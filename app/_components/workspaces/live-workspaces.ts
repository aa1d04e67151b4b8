"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { api } from "../api-client";
import { useLiveEvents } from "../events/live-events";

/** One of the caller's workspaces as the switcher lists it. */
export interface SwitcherWorkspace {
  id: string;
  slug: string;
  name: string;
  role: string;
  personal: boolean;
}

/**
 * The caller's workspaces, kept current by the event stream: a `membership` event (joined, removed,
 * role changed) re-reads `GET /api/workspaces`. A role change in the workspace on screen re-renders
 * the page, so its controls match the new role without a reload.
 */
export function useLiveWorkspaces(initial: SwitcherWorkspace[]): SwitcherWorkspace[] {
  const router = useRouter();
  const [workspaces, setWorkspaces] = useState(initial);
  // A server render (navigation, refresh) brings the list it read: that one is current.
  useEffect(() => setWorkspaces(initial), [initial]);
  useLiveEvents((event) => {
    if (event.type !== "membership") return;
    api<SwitcherWorkspace[]>("/api/workspaces").then(
      (list) => {
        setWorkspaces(list);
        const onScreen = document.querySelector<HTMLElement>("[data-workspace-id]")?.dataset.workspaceId;
        if (onScreen === event.workspaceId && list.some((w) => w.id === event.workspaceId)) router.refresh();
      },
      (error: Error) => console.warn("could not re-read the workspace list", error.message),
    );
  });
  return workspaces;
}
