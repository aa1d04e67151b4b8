/**
 * The chat rows of `npm run bench`, over the scripted OpenAI-compatible LLM of tests/fixtures/llm
 * (the app runs with it as the instance default model): first token of a turn for a user with no
 * server against one with 10 connected servers, and the time from a tool call's input reaching
 * the stream to its result (the tool card's output part) reaching it, read from the UI message
 * stream as a browser would receive it.
 */
import { DEFAULT_TOOL_SEARCH } from "../lib/agent/tool-search";
import { createServer, percentile, signIn } from "./harness";

/**
 * Wall-clock times (ms from sending) at which each UI stream chunk type first arrived, for one turn
 * in a new chat, and the answer's text (what a failed figure reports).
 */
export async function turn(base: string, cookie: string, message: string): Promise<Map<string, number> & { text: string }> {
  const chat = await fetch(`${base}/api/chats`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: "{}" });
  if (!chat.ok) throw new Error(`creating a chat failed: ${chat.status}`);
  const { id } = (await chat.json()) as { id: string };
  const t0 = performance.now();
  const response = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ chatId: id, message: { text: message } }),
  });
  if (!response.ok || !response.body) throw new Error(`chat turn failed: ${response.status} ${await response.text()}`);
  const seen = new Map<string, number>();
  let text = "";
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
      const chunk = JSON.parse(data) as { type: string; delta?: string };
      if (!seen.has(chunk.type)) seen.set(chunk.type, now);
      if (chunk.type === "text-delta") text += chunk.delta ?? "";
    }
  }
  return Object.assign(seen, { text });
}

/**
 * Keep the first server's `echo` always loaded in the caller's personal workspace. Ten servers
 * list more tools than a provider takes (128), so tool search is on for them whatever the
 * threshold; an always-loaded `echo` lets the model call it without a search first.
 */
async function echoAlwaysLoaded(base: string, cookie: string): Promise<void> {
  const list = await fetch(`${base}/api/workspaces`, { headers: { cookie } });
  const workspaces = (await list.json()) as { id: string; personal: boolean }[];
  const personal = workspaces.find((w) => w.personal);
  if (!personal) throw new Error("no personal workspace");
  const off = await fetch(`${base}/api/workspaces/${personal.id}/tool-search`, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ ...DEFAULT_TOOL_SEARCH, alwaysLoaded: ["mcp_everything0_echo"] }),
  });
  if (!off.ok) throw new Error(`setting the always-loaded tools failed: ${off.status} ${await off.text()}`);
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
  await echoAlwaysLoaded(base, ten);
  // Saving a server starts its connection; wait for all ten (a few seconds at most).
  let states: string[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const status = await fetch(`${base}/api/mcp/status`, { headers: { cookie: ten } });
    states = ((await status.json()) as { servers: { state: string; error?: string }[] }).servers.map(
      (s) => s.state + (s.error ? `: ${s.error}` : ""),
    );
    if (states.filter((s) => s === "connected").length === 10) break;
  }
  if (states.filter((s) => s === "connected").length !== 10)
    throw new Error(`the 10 chat servers did not all connect: ${states.join("; ")}`);
  const firstTokenTen = await p50(runs, () => firstToken(ten));

  const toolCard = await p50(runs, async () => {
    const seen = await turn(base, ten, '[[call:echo {"message":"bench"}]]');
    const input = seen.get("tool-input-available");
    const output = seen.get("tool-output-available");
    if (input === undefined || output === undefined)
      throw new Error(`no tool card in the stream: ${[...seen.keys()].join(",")} (${seen.text.slice(0, 300)})`);
    return output - input;
  });
  return { firstTokenNone, firstTokenTen, toolCard };
}
