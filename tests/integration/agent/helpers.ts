/**
 * Helpers for the agent's integration tests: a user with a chat in a temp database, the scripted
 * LLM, and one full turn (prepareTurn + runChat) read to its end.
 */
import path from "node:path";
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll } from "vitest";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { getDb, type Db } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { createServer, toServerDefinition } from "@/db/queries/servers";
import { parseServerConfig } from "@/lib/mcp/config";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import type { ChatRequest } from "@/lib/agent/chat-request";
import { createLanguageModel } from "@/lib/models/model";
import { prepareTurn } from "@/lib/agent/prepare-turn";
import { runChat, type RunChatOptions } from "@/lib/agent/run-chat";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { startScriptedLlm as startLlm } from "../../fixtures/llm/scripted-llm.mjs";

export const BARRIER = path.join(__dirname, "barrier-server.mjs");

/** The scripted LLM handle. */
export interface ScriptedLlm {
  baseUrl: string;
  requests: { body: { messages: { role: string; content: unknown }[]; tools?: unknown[] } }[];
  close(): Promise<void>;
}

/** Start the scripted OpenAI-compatible server on a free port. */
export function startScriptedLlm(): Promise<ScriptedLlm> {
  return startLlm(0) as Promise<ScriptedLlm>;
}

/** What each agent test file shares: a temp data dir, the scripted LLM and a pool of its own. */
export interface AgentEnvironment {
  pool: McpPool;
  llm: ScriptedLlm;
}

/**
 * Register the file's set-up and tear-down (temp data dir, scripted LLM, pool closed at the end);
 * `llm` is filled in before the first test runs.
 */
export function useAgentEnvironment(): AgentEnvironment {
  const env = { pool: new McpPool() } as AgentEnvironment;
  let dir = "";
  beforeAll(async () => {
    dir = useTempDataDir();
    env.llm = await startScriptedLlm();
  });
  afterAll(async () => {
    await env.pool.closeAll();
    await env.llm?.close();
    removeTempDataDir(dir);
  });
  return env;
}

/** A new user (with personal workspace), one chat, and the given servers stored in the workspace. */
export async function newUserWithChat(serverConfigs: Record<string, Record<string, unknown>> = {}, db: Db = getDb()) {
  const tag = Math.random().toString(36).slice(2, 8);
  const user = (await createUserWithWorkspace(db, { email: `u-${tag}@example.com`, name: `U ${tag}`, passwordHash: "x" }))!;
  const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
  const chat = await createChat(db, { ownerId: user.id, workspaceId });
  const servers: ServerDefinition[] = await Promise.all(
    Object.entries(serverConfigs).map(
      async ([name, config]) =>
        await toServerDefinition(
          db,
          await createServer(db, { workspaceId, name, config: parseServerConfig(config, name), createdBy: user.id }),
        ),
    ),
  );
  return { user: { ...user, workspaceId }, chat, servers };
}

/** Run one turn to completion and return every chunk sent to the browser. */
export async function runTurn(options: {
  pool: McpPool;
  llm: ScriptedLlm;
  userId: string;
  /** The workspace whose settings the turn uses (tool search); none = defaults. */
  workspaceId?: string;
  chatId: string;
  servers: ServerDefinition[];
  request: Omit<ChatRequest, "chatId">;
  signal?: AbortSignal;
  maxSteps?: number;
  onChunk?: (chunk: UIMessageChunk) => void;
  followInteractions?: RunChatOptions["followInteractions"];
}): Promise<UIMessageChunk[]> {
  const db = getDb();
  const request = { chatId: options.chatId, ...options.request } as ChatRequest;
  const messages = await prepareTurn({
    db,
    pool: options.pool,
    user: { id: options.userId },
    chatId: options.chatId,
    servers: options.servers,
    request,
  });
  const model = createLanguageModel({ provider: "openai-compatible", model: "scripted", baseUrl: options.llm.baseUrl, source: "instance" });
  const stream = await runChat({
    db,
    pool: options.pool,
    model,
    user: { id: options.userId, workspaceId: options.workspaceId },
    chatId: options.chatId,
    servers: options.servers,
    messages,
    signal: options.signal,
    maxSteps: options.maxSteps,
    followInteractions: options.followInteractions,
  });
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    options.onChunk?.(value);
  }
  return chunks;
}

/** A user-turn request. */
export function say(text: string, extra: Partial<NonNullable<ChatRequest["message"]>> = {}): Omit<ChatRequest, "chatId"> {
  return { message: { text, resources: [], ...extra } };
}
