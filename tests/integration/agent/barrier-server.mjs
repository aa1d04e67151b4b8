/**
 * A stdio MCP server for the parallel-calls test. Tool `meet` records when each call starts and
 * ends (this process's clock) and waits until a second call is in flight or `waitMs` passes, so
 * two calls overlap exactly when the host lets them run together — no wall-clock thresholds.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "barrier", version: "1.0.0" });
let inFlight = 0;
const waiters = new Set();
let seq = 0;

server.registerTool(
  "meet",
  { description: "Wait for a partner call", inputSchema: { label: z.string(), waitMs: z.number().optional() } },
  async ({ label, waitMs = 1500 }) => {
    const start = { at: performance.now(), seq: seq++ };
    inFlight++;
    for (const wake of waiters) wake();
    if (inFlight < 2) {
      await new Promise((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, waitMs);
        waiters.add(wake);
      });
    }
    const end = { at: performance.now(), seq: seq++ };
    inFlight--;
    return {
      content: [{ type: "text", text: JSON.stringify({ label, startSeq: start.seq, endSeq: end.seq, start: start.at, end: end.at }) }],
    };
  },
);

await server.connect(new StdioServerTransport());
