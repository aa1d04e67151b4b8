"use client";

import { useEffect, useRef } from "react";
import type { ServerStatus } from "@/lib/mcp/types";

/** One event of `GET /api/events` (lib/runtime/status-events.ts). */
export type LiveEvent =
  | { type: "status"; serverId: string; status: ServerStatus }
  | { type: "resource_updated"; serverId: string; uri: string }
  | { type: "membership"; workspaceId: string; notice?: { code: "workspace.role_changed" | "workspace.deleted"; message: string } }
  | { type: "ready" };

type Listener = (event: LiveEvent) => void;

// One EventSource per tab, shared by every component that listens: browsers cap connections per
// origin, and the server keeps one subscription per stream.
let source: EventSource | null = null;
const listeners = new Set<Listener>();

function dispatch(event: LiveEvent) {
  for (const listener of listeners) listener(event);
}

function open(): void {
  if (source) return;
  source = new EventSource("/api/events");
  // `ready` arrives on every (re)connect: listeners re-read state they may have missed meanwhile.
  source.addEventListener("ready", () => dispatch({ type: "ready" }));
  for (const type of ["status", "resource_updated", "membership"] as const) {
    source.addEventListener(type, (message) => {
      try {
        dispatch(JSON.parse((message as MessageEvent<string>).data) as LiveEvent);
      } catch (error) {
        console.warn("unreadable live event", error);
      }
    });
  }
}

function close(): void {
  source?.close();
  source = null;
}

/** Listen to the tab's live event stream while mounted; the stream opens with the first listener. */
export function useLiveEvents(listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward: Listener = (event) => latest.current(event);
    listeners.add(forward);
    open();
    return () => {
      listeners.delete(forward);
      if (listeners.size === 0) close();
    };
  }, []);
}

/** Live status of one server: `onStatus` gets each pushed status, `onResync` asks for a fresh read. */
export function useServerStatusEvents(serverId: string, onStatus: (status: ServerStatus) => void, onResync: () => void): void {
  useLiveEvents((event) => {
    if (event.type === "ready") onResync();
    else if (event.type === "status" && event.serverId === serverId) onStatus(event.status);
  });
}
