/**
 * Conformance client entry until `switchboard conformance <url>` is wired: the server URL is the
 * last argument (the suite appends it). Run with `node node_modules/tsx/dist/cli.mjs bin/conformance-client.ts <url>`.
 */
import { runConformance } from "../lib/cli/conformance";

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: conformance-client <server-url>\n");
  process.exit(2);
}
runConformance(url).then((code) => process.exit(code));
