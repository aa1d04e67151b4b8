/**
 * The chat rows of `npm run bench`, over the scripted OpenAI-compatible LLM of tests/fixtures/llm
 * (the app runs with it as the instance default model): first token of a turn for a user with no
 * server against one with 10 connected servers, and the time from a tool call's input reaching
 * the stream to its result (the tool card's output part) reaching it, read from the UI message
 * stream as a browser would receive it.
 */
import { createServer, percentile, signIn } from "./harness";

/** Wall-clock times (ms from sending) at which each UI stream chunk type first arrived, for one turn in a new chat. */
export async function turn(base: string, cookie: string, text: string): Promise<Map<string, number>> {
  const chat = await fetch(`${base}/api/chats`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: "{}" });
  if (!chat.ok) throw new Error(`creating a chat failed: ${chat.status}`);
  const { id } = (await chat.json()) as { id: string };
  const t0 = performance.now();
  const response = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ chatId: id, message: { text } }),
  });
  if (!response.ok || !response.body) throw new Error(`chat turn failed: ${response.status} ${await response.text()}`);
  const seen = new Map<string, number>();
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body.getReader();
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    const now = performance.now() - t0;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const data = event.startsWith("data: ") ? event.slice(6) : "";
      if (!data || data === "[DONE]") continue;
      const type = (JSON.parse(data) as { type: string }).type;
      if (!seen.has(type)) seen.set(type, now);
    }
  }
  return seen;
}

/** p50 of `runs` turns' figure. */
async function p50(runs: number, figure: () => Promise<number>): Promise<number> {
  for (let i = 0; i < 3; i++) await figure(); // warm-up
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await figure());
  return percentile(
    values.sort((a, b) => a - b),
    50,
  );
}

/** The chat figures: first token with 0 and with 10 servers, and input → output of an `echo` tool card. */
export async function chatFigures(base: string, dataDir: string, mcpUrl: string, runs = 15) {
  const firstToken = async (cookie: string) => {
    const seen = await turn(base, cookie, "hello");
    const at = seen.get("text-delta");
    if (at === undefined) throw new Error(`no text in the answer: ${[...seen.keys()].join(",")}`);
    return at;
  };
  const none = await signIn(base, dataDir, "chat-none@example.com");
  const firstTokenNone = await p50(runs, () => firstToken(none));

  const ten = await signIn(base, dataDir, "chat-ten@example.com");
  for (let i = 0; i < 10; i++) {
    const id = await createServer(base, ten, `everything${i}`, { url: mcpUrl, supports_parallel_tool_calls: true });
    // New servers are untrusted: trusting them lets the read-only echo run without an approval.
    const trusted = await fetch(`${base}/api/servers/${id}/trust`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie: ten },
      body: JSON.stringify({ trusted: true }),
    });
    if (!trusted.ok) throw new Error(`trusting a server failed: ${trusted.status}`);
  }
  const status = await fetch(`${base}/api/mcp/status`, { headers: { cookie: ten } });
  const { servers } = (await status.json()) as { servers: { state: string }[] };
  if (servers.filter((s) => s.state === "connected").length !== 10) throw new Error("the 10 chat servers did not all connect");
  const firstTokenTen = await p50(runs, () => firstToken(ten));

  const toolCard = await p50(runs, async () => {
    const seen = await turn(base, ten, '[[call:echo {"message":"bench"}]]');
    const input = seen.get("tool-input-available");
    const output = seen.get("tool-output-available");
    if (input === undefined || output === undefined) throw new Error(`no tool card in the stream: ${[...seen.keys()].join(",")}`);
    return output - input;
  });
  return { firstTokenNone, firstTokenTen, toolCard };
}
