/**
 * The environment of a stdio child (docs/security.md#stdio-sandbox): only the allow-list from the parent plus the
 * config's `env`. Never the app's whole environment: it holds the app's secrets and model API keys.
 */
import { environment } from "../env";

/** Parent variables a child may inherit; every `XDG_*` variable is allowed too. */
export const ENV_ALLOW_LIST = ["PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR"] as const;

/** Build the child's environment from the parent's (`source`) and the config `env`, which wins. */
export function childEnvironment(
  configEnv: Record<string, string> | undefined,
  source: Record<string, string | undefined> = environment(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if ((ENV_ALLOW_LIST as readonly string[]).includes(key) || key.startsWith("XDG_")) env[key] = value;
  }
  return { ...env, ...(configEnv ?? {}) };
}
