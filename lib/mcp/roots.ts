/**
 * `roots/list` answers: the folders a server may work in. For stdio servers these are the
 * read-only paths the administrator shared into the sandbox; remote servers get none.
 */
import { pathToFileURL } from "node:url";
import path from "node:path";
import type { Root } from "@modelcontextprotocol/client";
import type { ServerConfig } from "./config";

/** The roots offered to a server, as `file://` URIs named after their last path segment. */
export function rootsOf(config: ServerConfig): Root[] {
  if (config.command === undefined) return [];
  return (config.read_only_paths ?? []).map((dir) => ({ uri: pathToFileURL(path.resolve(dir)).href, name: path.basename(dir) || dir }));
}
