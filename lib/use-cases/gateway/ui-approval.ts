/**
 * Approval in Switchboard of an `ask` tool called through the gateway by a client that cannot be
 * asked itself (no form elicitation, or a 2026-07-28 request): docs/gateway.md#approval-in-switchboard.
 * The call becomes one of the member's pending questions, the same machinery as a server's
 * elicitation (lib/runtime/elicitations.ts and the question desk: a row any replica lists through
 * `/api/pending` and answers through `/api/elicitations/:id`, only by the member it belongs to, and
 * withdrawn when they lose access), shown by the app's pending-questions dialog on any page; the
 * gateway's request waits for the answer, at most `UI_APPROVAL_WAIT_MS`.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import { getMembershipRole } from "../../../db/queries/workspaces";
import { elicitationBroker } from "../../runtime/elicitations";
import { workspaceServerDefinition } from "../../runtime/engine";
import type { TrustActor } from "../../trust/permissions";
import { workspacePageUrl } from "./connect-elicitation";

/** How long a gateway call waits for its approval in Switchboard before it is refused (ms). */
export const UI_APPROVAL_WAIT_MS = 5 * 60_000;
/** How often a waiting call tells a client that asked for progress that it still waits, and where (ms). */
export const UI_APPROVAL_PROGRESS_MS = 15_000;

/**
 * At most this many of a member's questions wait on one replica when a gateway call would add
 * another: each holds a request open, so a client cannot pile up waiting calls (the per-user
 * request rate alone would let it park thousands within the wait).
 */
export const UI_APPROVAL_MAX_WAITING = 16;

/** An approval question shows the arguments as JSON, cut to this length (what a dialog can show). */
const QUESTION_ARGS_MAX = 2000;

/** A call's arguments as an approval question shows them: indented JSON, cut to `QUESTION_ARGS_MAX`. */
export function shownArgs(args: Record<string, unknown>): string {
  const shown = JSON.stringify(args, null, 2);
  return shown.length > QUESTION_ARGS_MAX ? `${shown.slice(0, QUESTION_ARGS_MAX)} …` : shown;
}

/** One `ask` call waiting for approval: its name as the client called it, arguments and the policy's reason. */
export interface AskedCall {
  name: string;
  args: Record<string, unknown>;
  reason: string;
}

/** What the question says: who asks, for which call, with which arguments, and what each answer does. */
export function approvalQuestion(client: string | null, call: AskedCall): string {
  const args = shownArgs(call.args);
  return `${client ? `The MCP client "${client}"` : "An MCP client"} wants to call "${call.name}" through the gateway with these arguments:\n${args}\n(${call.reason})\nAccept runs the call; Decline refuses it.`;
}

/**
 * Wait for the member to approve `call` in Switchboard: resolves on Accept (the member still
 * belongs to the workspace), throws an MCP error on Decline or Cancel, when the client gives up
 * (its request's signal), and after `UI_APPROVAL_WAIT_MS` (the question is then withdrawn). While it
 * waits, a client that asked for progress hears every `UI_APPROVAL_PROGRESS_MS` where to approve,
 * and a 2025-11-25 client that declared URL elicitation is sent the page as one (its Decline
 * refuses the call).
 */
export async function approveInSwitchboard(
  mcp: Server,
  ctx: ServerContext,
  actor: TrustActor,
  serverId: string,
  client: string | null,
  call: AskedCall,
): Promise<void> {
  const server = await workspaceServerDefinition(getDb(), actor, serverId);
  // The pending-questions dialog shows on every page of the app; the chat is the workspace's home.
  const page = await workspacePageUrl(ctx, actor, "chat");
  if (elicitationBroker().list(actor.id).length >= UI_APPROVAL_MAX_WAITING) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `The call of "${call.name}" was not queued: ${UI_APPROVAL_MAX_WAITING} of your questions already wait in Switchboard (${page}); answer them first.`,
    );
  }
  const timeout = AbortSignal.timeout(UI_APPROVAL_WAIT_MS);
  const declined = new AbortController();
  const signal = AbortSignal.any([ctx.mcpReq.signal, timeout, declined.signal]);
  const waiting = `Waiting for your approval of "${call.name}" in Switchboard: ${page}`;
  const stopProgress = progressWhileWaiting(ctx, waiting);
  const elicitationId = offerPage(mcp, ctx, page, waiting, declined);
  let answer: { action: string };
  try {
    answer = await elicitationBroker().request(
      actor.id,
      server,
      { mode: "form", message: approvalQuestion(client, call), requestedSchema: { type: "object", properties: {} } },
      signal,
    );
  } finally {
    stopProgress();
  }
  if (elicitationId) {
    // The page's part is done, whatever the answer (the client may close what it opened).
    void mcp.notification({ method: "notifications/elicitation/complete", params: { elicitationId } }).catch(() => undefined);
  }
  if (answer.action === "accept") {
    // The answer came from the member's own session; they must still belong to the workspace now.
    if (!(await getMembershipRole(getDb(), actor.workspaceId, actor.id))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The call of "${call.name}" was not run: your access to the workspace ended.`,
      );
    }
    return;
  }
  if (timeout.aborted) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `The call of "${call.name}" waited ${UI_APPROVAL_WAIT_MS / 60_000} minutes for approval in Switchboard (${page}) and was not approved; call it again to ask again, or set the tool to Always allow in Switchboard.`,
    );
  }
  const how = declined.signal.aborted ? "declined at the client" : answer.action;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The call of "${call.name}" was not approved in Switchboard (${how}).`);
}

/** Progress notifications saying where to approve, now and every `UI_APPROVAL_PROGRESS_MS`, when the client asked for progress. */
function progressWhileWaiting(ctx: ServerContext, message: string): () => void {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let progress = 0;
  const tell = () =>
    void ctx.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken, progress: ++progress, message } })
      // The client went away: the wait ends through the request's signal.
      .catch(() => undefined);
  tell();
  const timer = setInterval(tell, UI_APPROVAL_PROGRESS_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * A 2025-11-25 session whose client declared URL elicitation is sent the approval page as one
 * (not awaited: the approval itself arrives through Switchboard); its Decline or Cancel aborts
 * `declined`. Returns the elicitation's id, or null when none was sent.
 */
function offerPage(mcp: Server, ctx: ServerContext, url: string, message: string, declined: AbortController): string | null {
  if (ctx.mcpReq.envelope !== undefined || !mcp.getClientCapabilities()?.elicitation?.url) return null;
  const elicitationId = randomUUID();
  void ctx.mcpReq
    // On this call's own stream (the SDK leaves the related request out: see approveThroughClient).
    .elicitInput({ mode: "url", message, url, elicitationId }, { relatedRequestId: ctx.mcpReq.id })
    .then((answer) => {
      if (answer.action !== "accept") declined.abort();
    })
    // Unanswered or refused by the client's SDK: the approval in Switchboard still counts.
    .catch(() => undefined);
  return elicitationId;
}
