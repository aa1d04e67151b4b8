/**
 * The lifecycle table (lib/mcp/lifecycle.ts): the moves the engine makes are allowed, the ones it
 * must never make are refused and reported, and a refused move leaves the state as it was.
 */
import { describe, expect, it } from "vitest";
import { canMove, Lifecycle, TRANSITIONS } from "@/lib/mcp/lifecycle";
import type { ServerState } from "@/lib/mcp";

const STATES: ServerState[] = ["idle", "connecting", "connected", "needs_authorization", "reconnecting", "failed", "disabled"];

describe("server lifecycle", () => {
  it("lists every state, and every state may be closed (idle) or disabled", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATES].sort());
    for (const state of STATES) {
      expect(canMove(state, "idle")).toBe(true);
      expect(canMove(state, "disabled")).toBe(true);
    }
  });

  it("allows connect, drop, reconnect, give-up and authorization paths", () => {
    const paths: ServerState[][] = [
      ["idle", "connecting", "connected", "reconnecting", "reconnecting", "connected"],
      ["connected", "reconnecting", "failed", "connecting", "needs_authorization", "connecting", "connected"],
      ["connecting", "failed", "idle", "needs_authorization"],
    ];
    for (const path of paths) {
      for (let i = 1; i < path.length; i++) expect(canMove(path[i - 1], path[i]), `${path[i - 1]} → ${path[i]}`).toBe(true);
    }
  });

  it("refuses moves the engine never makes, and keeps the state", () => {
    const refused: [ServerState, ServerState][] = [];
    const lifecycle = new Lifecycle("disabled", (from, to) => refused.push([from, to]));
    expect(lifecycle.to("connecting")).toBe(false);
    expect(lifecycle.to("connected")).toBe(false);
    expect(lifecycle.state).toBe("disabled");
    expect(refused).toEqual([
      ["disabled", "connecting"],
      ["disabled", "connected"],
    ]);
    expect(lifecycle.to("idle")).toBe(true);
    expect(canMove("idle", "connected")).toBe(false);
    expect(canMove("connected", "connecting")).toBe(false);
    expect(canMove("failed", "connected")).toBe(false);
  });
});
