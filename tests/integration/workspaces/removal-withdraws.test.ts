/**
 * Losing access withdraws what was waiting for the person: removing a member (or disabling an
 * account) takes their pending elicitations and sampling reviews for the workspace's servers out
 * of their queue, an answer to an old id delivers nothing, and tool-call approvals still open in
 * their chats of that workspace are denied. The elicitations come from a real server-everything
 * over stdio through a real pool; other people's requests stay untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { listMessagesByChat, saveMessage } from "@/db/queries/messages";
import { createServer, getServerById } from "@/db/queries/servers";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { elicitationBroker } from "@/lib/runtime/elicitations";
import { samplingHost } from "@/lib/runtime/sampling";
import { WITHDRAWN_ACCESS_ENDED, withdrawingEffects } from "@/lib/use-cases/withdraw-requests";
import { parseServerConfig } from "@/lib/mcp/config";
import { McpPool, type ServerDefinition, type ToolCallOutcome } from "@/lib/mcp";
import { definitionFor } from "@/lib/servers/credential-mode";
import { adminUpdateUser } from "@/lib/workspaces/admin";
import { acceptInvitation, createInvitation, invitationSchema } from "@/lib/workspaces/invitations";
import { removeMember } from "@/lib/workspaces/members";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { EVERYTHING, waitUntil } from "../mcp/helpers";
import { actorIn, person, recordingEffects, team, type Person } from "./helpers";

const SECRET_ANSWER = { action: "accept" as const, content: { name: "hunter2-password" } };

let dir: string;
let pool: McpPool;
let owner: Person;
let bob: Person;
let acme: string;
let serverId: string;

async function invite(user: Person, workspaceId: string) {
  const db = getDb();
  const created = await createInvitation(db, await actorIn(owner, workspaceId), invitationSchema.parse({ email: user.email }), {
    baseUrl: "http://app.test",
  });
  await acceptInvitation(db, user, created.token);
}

async function defFor(user: Person): Promise<ServerDefinition> {
  return await definitionFor(getDb(), user.id, (await getServerById(getDb(), { id: serverId, workspaceId: acme }))!);
}

/** Start a real elicitation from the server for `user`; resolves with the tool's outcome. */
async function elicit(user: Person): Promise<{ outcome: Promise<ToolCallOutcome>; id: string }> {
  const before = new Set(
    elicitationBroker()
      .list(user.id)
      .map((view) => view.id),
  );
  const outcome = pool.session(user.id, await defFor(user)).callTool("trigger-elicitation-request", {});
  let id = "";
  await waitUntil(
    () => {
      id =
        elicitationBroker()
          .list(user.id)
          .find((view) => !before.has(view.id))?.id ?? "";
      return id !== "";
    },
    20_000,
    "the elicitation to reach the queue",
  );
  return { outcome, id };
}

/** Park a sampling review for `user` as the sampling host does; resolves with the decision. */
function sampleReview(user: Person) {
  const view = { serverId, serverName: "everything", stage: "request" as const, messages: [], maxTokens: 10, model: "m" };
  return samplingHost().reviews.wait(user.id, view, new AbortController().signal);
}

/** A chat of `user` in `workspaceId` whose last answer waits for a tool-call approval. */
async function chatWithOpenApproval(user: Person, workspaceId: string): Promise<string> {
  const db = getDb();
  const chat = await createChat(db, { ownerId: user.id, workspaceId });
  const message = {
    id: `m-${chat.id}`,
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "everything__echo",
        toolCallId: `call-${chat.id}`,
        state: "approval-requested",
        input: { message: "hi" },
        approval: { id: `approval-${chat.id}` },
      },
    ],
  } as unknown as ChatMessage;
  await saveMessage(db, chat.id, message);
  return chat.id;
}

async function approvalOf(chatId: string) {
  const part = (await listMessagesByChat(getDb(), chatId)).at(-1)!.parts[0] as {
    state: string;
    approval: { approved?: boolean; reason?: string };
  };
  return { state: part.state, approval: part.approval };
}

beforeAll(async () => {
  dir = useTempDataDir();
  pool = new McpPool({ onElicitation: elicitationBroker().handler });
  owner = await person("owner@example.com");
  bob = await person("bob@example.com");
  acme = await team(owner, "Acme");
  await invite(bob, acme);
  const config = parseServerConfig({ command: process.execPath, args: [EVERYTHING, "stdio"] }, "everything");
  serverId = (await createServer(getDb(), { workspaceId: acme, name: "everything", config, createdBy: owner.id })).id;
});

afterAll(async () => {
  await pool?.closeAll();
  removeTempDataDir(dir);
});

describe("removing a member withdraws their pending requests", () => {
  it("empties their queue, refuses a late answer, denies their open approvals; the owner's stay", async () => {
    const bobs = await elicit(bob);
    const owners = await elicit(owner);
    const bobReview = sampleReview(bob);
    const ownerReview = sampleReview(owner);
    const bobChat = await chatWithOpenApproval(bob, acme);
    const bobPersonalChat = await chatWithOpenApproval(bob, bob.personalWorkspaceId);
    const ownerChat = await chatWithOpenApproval(owner, acme);

    const { effects, calls } = recordingEffects(pool);
    await removeMember(getDb(), await actorIn(owner, acme), bob.id, withdrawingEffects(getDb(), effects));
    expect(calls.closed[0]).toEqual([bob.id, [serverId]]);

    // Gone from the queue; an answer to the old id is refused, so nothing reaches the server.
    expect(elicitationBroker().list(bob.id)).toEqual([]);
    expect(elicitationBroker().answer(bob.id, bobs.id, SECRET_ANSWER)).toBe(false);
    const bobOutcome = await bobs.outcome;
    expect(JSON.stringify(bobOutcome.content)).not.toContain("hunter2");
    await expect(bobReview).resolves.toEqual({ action: "deny" });
    expect(samplingHost().reviews.list(bob.id)).toEqual([]);

    // Approvals in the workspace they left are denied with the reason; their personal chat keeps its own.
    expect(await approvalOf(bobChat)).toEqual({
      state: "output-denied",
      approval: expect.objectContaining({ approved: false, reason: WITHDRAWN_ACCESS_ENDED }),
    });
    expect((await approvalOf(bobPersonalChat)).state).toBe("approval-requested");

    // The owner's requests and approvals are untouched, and their answer is still delivered.
    expect((await approvalOf(ownerChat)).state).toBe("approval-requested");
    expect(samplingHost().reviews.list(owner.id)).toHaveLength(1);
    expect(samplingHost().reviews.answer(owner.id, samplingHost().reviews.list(owner.id)[0].id, { action: "deny" })).toBe(true);
    await expect(ownerReview).resolves.toEqual({ action: "deny" });
    expect(elicitationBroker().answer(owner.id, owners.id, SECRET_ANSWER)).toBe(true);
    const ownerOutcome = await owners.outcome;
    expect(ownerOutcome.isError).toBe(false);
    expect(JSON.stringify(ownerOutcome.content)).toContain("hunter2-password");
  });
});

describe("disabling an account withdraws its pending requests", () => {
  it("everywhere, with its open approvals in every workspace", async () => {
    await invite(bob, acme);
    const bobs = await elicit(bob);
    const bobReview = sampleReview(bob);
    const teamChat = await chatWithOpenApproval(bob, acme);
    const personalChat = await chatWithOpenApproval(bob, bob.personalWorkspaceId);

    const { effects } = recordingEffects(pool);
    // The first account of the instance is its administrator.
    await adminUpdateUser(getDb(), { id: owner.id }, bob.id, { disabled: true }, withdrawingEffects(getDb(), effects));

    expect(elicitationBroker().list(bob.id)).toEqual([]);
    expect(elicitationBroker().answer(bob.id, bobs.id, SECRET_ANSWER)).toBe(false);
    expect(JSON.stringify((await bobs.outcome).content)).not.toContain("hunter2");
    await expect(bobReview).resolves.toEqual({ action: "deny" });
    expect((await approvalOf(teamChat)).state).toBe("output-denied");
    expect((await approvalOf(personalChat)).state).toBe("output-denied");
  });
});
