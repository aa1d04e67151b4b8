/**
 * The environment inside the sandbox: exactly the launch's environment (already filtered to the
 * allow-list of docs/security.md#stdio-sandbox plus the config's `env`), with host paths pointed into the sandbox.
 */
import { SandboxRefusedError } from "./errors";
import { SANDBOX_HOME, SANDBOX_TMP } from "./paths";

// Host values of these name host directories that do not exist inside; the config's own `env`
// may still set them on purpose.
const HOME_RELATIVE: Record<string, string> = {
  XDG_CONFIG_HOME: ".config",
  XDG_CACHE_HOME: ".cache",
  XDG_DATA_HOME: ".local/share",
  XDG_STATE_HOME: ".local/state",
};
// The runtime dir must be private to the user: the sandbox's own /tmp is.
const RUNTIME_DIR = SANDBOX_TMP;

// bubblewrap's --setenv calls setenv(3), which rejects names with "=" and the empty name.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Build the sandbox environment. HOME and TMPDIR always point into the sandbox, as do the XDG
 * base directories the host had set; `npm_config_cache` defaults into HOME so `npx` can write.
 * Names from `configEnv` are kept as the administrator wrote them (apart from HOME and TMPDIR).
 */
export function buildSandboxEnv(launchEnv: Record<string, string>, configEnv: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(launchEnv)) {
    if (!ENV_NAME.test(name)) {
      throw new SandboxRefusedError("env", `Environment name ${JSON.stringify(name)} cannot be set inside the sandbox.`);
    }
    env[name] = value;
  }
  for (const [name, relative] of Object.entries(HOME_RELATIVE)) {
    if (name in env && !(name in configEnv)) env[name] = `${SANDBOX_HOME}/${relative}`;
  }
  if ("XDG_RUNTIME_DIR" in env && !("XDG_RUNTIME_DIR" in configEnv)) env.XDG_RUNTIME_DIR = RUNTIME_DIR;
  if (!("npm_config_cache" in configEnv)) env.npm_config_cache = `${SANDBOX_HOME}/.npm`;
  env.HOME = SANDBOX_HOME;
  env.TMPDIR = SANDBOX_TMP;
  return env;
}
