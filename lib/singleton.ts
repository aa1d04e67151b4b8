/**
 * Process-wide state (the database, the MCP pool, the brokers waiting for users' answers) lives in
 * one registry on globalThis: Next's dev server re-evaluates modules on every edit, and a module-level
 * variable would then open a second database or orphan live MCP connections. A leaf module.
 */

const REGISTRY = Symbol.for("switchboard.singletons");

function registry(): Map<string, unknown> {
  const slots = globalThis as { [REGISTRY]?: Map<string, unknown> };
  slots[REGISTRY] ??= new Map();
  return slots[REGISTRY];
}

/** The process-wide value named `name`, created by `create` on first use. */
export function singleton<T>(name: string, create: () => T): T {
  const slots = registry();
  if (!slots.has(name)) slots.set(name, create());
  return slots.get(name) as T;
}

/** The process-wide value named `name` when one exists, without creating it. */
export function peekSingleton<T>(name: string): T | undefined {
  return registry().get(name) as T | undefined;
}

/** Forget the value named `name` and return it, so the caller can close it. */
export function clearSingleton<T>(name: string): T | undefined {
  const slots = registry();
  const value = slots.get(name) as T | undefined;
  slots.delete(name);
  return value;
}
