/**
 * What the sandbox needs to know about the host: the layout of /bin and /lib*, and where an
 * executable is installed (so its install directory can be shared read-only).
 */
import { constants } from "node:fs";
import { access, lstat, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { RootEntry } from "./bwrap-args";
import { isWithin } from "./paths";

const ROOT_ENTRIES = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** The host's top-level binary and library entries that exist (symlinks on merged-/usr systems). */
export async function readRootLayout(): Promise<RootEntry[]> {
  const entries: RootEntry[] = [];
  for (const entry of ROOT_ENTRIES) {
    const stats = await lstat(entry).catch(() => null);
    if (!stats) continue; // absent on this host (e.g. /lib32), nothing to share
    if (stats.isSymbolicLink()) entries.push({ path: entry, symlinkTo: await readlink(entry) });
    else if (stats.isDirectory()) entries.push({ path: entry });
  }
  return entries;
}

/** The absolute path `command` runs as, searching `searchPath` (PATH) for a bare name; null if none. */
export async function findExecutable(command: string, searchPath: string | undefined): Promise<string | null> {
  if (command.includes("/")) return path.isAbsolute(command) ? ((await isExecutable(command)) ? command : null) : null;
  for (const dir of (searchPath ?? "").split(":")) {
    if (!path.isAbsolute(dir)) continue; // a relative PATH entry means something else inside the sandbox
    const candidate = path.join(dir, command);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * The directories to share so `executable` runs: for each of its path and its real path (symlinks
 * resolved), the install prefix (`<prefix>/bin/x` → `<prefix>`, so `lib/` comes along), unless
 * the shared system directories already hold it.
 */
export async function installDirs(executable: string, systemRoots: string[]): Promise<string[]> {
  const real = await realpath(executable);
  const dirs = new Set<string>();
  for (const file of [executable, real]) {
    if (systemRoots.some((root) => isWithin(root, file))) continue;
    const dir = path.dirname(file);
    dirs.add(path.basename(dir) === "bin" ? path.dirname(dir) : dir);
  }
  return [...dirs];
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false; // not there or not executable: keep searching PATH
  }
}
