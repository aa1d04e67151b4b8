#!/usr/bin/env node
// The `switchboard` command line: the same lib/mcp engine as the web app, configured from YAML.
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";
import { checkRuntime } from "../scripts/runtime.mjs";

// Quiet on the supported Node (the output is the command's); stops with the fix on an older one.
checkRuntime("switchboard");

const { main } = await tsImport("../lib/cli/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2), undefined, fileURLToPath(new URL("..", import.meta.url)));
