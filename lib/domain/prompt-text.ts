/** Prompt messages as plain text: shared by the server (what is stored and sent) and the preview in the browser. */
import type { GetPromptResult } from "@modelcontextprotocol/client";

/** The text of one prompt message's content block. */
export function promptContentText(content: GetPromptResult["messages"][number]["content"]): string {
  switch (content.type) {
    case "text":
      return content.text;
    case "resource":
      return "text" in content.resource
        ? `Resource ${content.resource.uri}:\n${content.resource.text}`
        : `[binary resource ${content.resource.uri}]`;
    case "resource_link":
      return `Resource link: ${content.uri}`;
    default:
      return `[${content.type}]`;
  }
}
