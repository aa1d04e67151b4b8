/**
 * Parallel tool calls in one model turn (docs/configuration.md `supports_parallel_tool_calls`): through the
 * agent loop, two calls to a server with `false` run one after the other, with `true` together.
 * Order comes from sequence numbers the fixture server records, not from wall-clock thresholds.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { BARRIER, newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();

interface Meeting {
  label: string;
  startSeq: number;
  endSeq: number;
}

async function twoCalls(parallel: boolean): Promise<Meeting[]> {
  const { user, chat, servers } = await newUserWithChat({
    barrier: { command: process.execPath, args: [BARRIER], supports_parallel_tool_calls: parallel },
  });
  // "allow" so both calls run in the same step without waiting for a person.
  await setToolPolicy(getDb(), user.id, { serverId: servers[0].id, toolName: "meet", policy: "allow" });
  await runTurn({
    ...env,
    userId: user.id,
    chatId: chat.id,
    servers,
    request: say('[[call:meet {"label":"a"}]] [[call:meet {"label":"b"}]]'),
  });
  const assistant = (await listMessagesByChat(getDb(), chat.id))[1];
  const outputs = assistant.parts
    .filter((p) => p.type === "dynamic-tool")
    .map((p) => {
      expect(p.state).toBe("output-available");
      const text = (p as { output: { content: { content: { text: string }[] } } }).output.content.content[0].text;
      return JSON.parse(text) as Meeting;
    });
  expect(outputs).toHaveLength(2);
  return outputs.sort((x, y) => x.startSeq - y.startSeq);
}

describe("parallel tool calls through the agent", () => {
  it("runs calls one after the other when the server does not support parallel calls", async () => {
    const [first, second] = await twoCalls(false);
    expect(second.startSeq).toBeGreaterThan(first.endSeq);
  });

  it("runs calls together when the server supports parallel calls", async () => {
    const [first, second] = await twoCalls(true);
    expect(second.startSeq).toBeLessThan(first.endSeq);
  });
});
