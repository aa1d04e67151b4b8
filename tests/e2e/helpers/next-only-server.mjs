// The app's own HTTP server (scripts/server.mjs) with the direct lane never installed: every request
// goes to Next's router, so tests/e2e/lane-parity.spec.ts can send each lane route's requests both
// ways. instrumentation.ts installs the lane by assigning this slot; here that assignment is dropped.
Object.defineProperty(globalThis, Symbol.for("switchboard.directLane"), { get: () => undefined, set: () => undefined });
await import("../../../scripts/server.mjs");
