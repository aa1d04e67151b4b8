// V8 flags of the app's server process, and of the integration tests that measure its memory.
// Node 22 and later size the young generation from the heap limit: on a machine with a lot of memory
// each semi-space grows to 64 MiB, so a burst of short-lived garbage (a notification flood, a busy
// tool call stream) leaves ~100 MiB more resident memory than on Node 20. 16 MiB semi-spaces are the
// figure every bench and memory bound of this project was measured with (docs/performance.md).

/** Flags given to `node` for scripts/server.mjs (scripts/start.mjs) and the integration test workers. */
export const APP_V8_FLAGS = ["--max-semi-space-size=16"];
