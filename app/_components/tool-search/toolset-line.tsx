"use client";
/** The "tools loaded" line of an answer that used tool search: which tools the model had, and why. */
import type { ToolsetData } from "@/lib/domain/chat-message";

const REASON: Record<ToolsetData["loaded"][number]["reason"], string> = {
  always: "always loaded",
  recent: "used recently",
  search: "found by search",
};

/** One collapsed line; opening it lists each loaded tool with its reason (and the search that found it). */
export function ToolsetLine({ data }: { data: ToolsetData }) {
  return (
    <details data-testid="toolset-line" className="mb-1 text-xs text-zinc-500">
      <summary className="cursor-pointer">
        Tool search: {data.loaded.length} of {data.total} tools loaded
      </summary>
      <ul className="mt-1 space-y-0.5 pl-4">
        {data.loaded.map((tool) => (
          <li key={tool.name} data-testid="toolset-tool" data-reason={tool.reason}>
            <span className="font-mono">
              {tool.serverName}/{tool.tool}
            </span>{" "}
            — {REASON[tool.reason]}
            {tool.query ? ` ("${tool.query}")` : ""}
          </li>
        ))}
      </ul>
    </details>
  );
}
