/**
 * A persistent, size-capped home: an ext4 image file of the cap's size beside the home directory
 * (`<data>/sandboxes/<user>/<server>.img`), which the launcher mounts on that directory in the
 * sandbox's own mount namespace. Files survive restarts of the server; a full home stops at the
 * cap (ENOSPC) and can never grow past it on the disk the database lives on. The file is sparse:
 * it takes the disk space its contents use, at most the cap (docs/limits.md#the-sandbox-as-a-whole).
 */
import { execFile } from "node:child_process";
import { access, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { SandboxIdentity } from "./identity";

const run = promisify(execFile);

/** The programs an image home needs (e2fsprogs, util-linux, mount); absent ones fall back to tmpfs. */
export const HOME_IMAGE_TOOLS = {
  mkfs: ["/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"],
  flock: ["/usr/bin/flock", "/bin/flock"],
  losetup: ["/usr/sbin/losetup", "/sbin/losetup"],
  mount: ["/usr/bin/mount", "/bin/mount"],
};

/** Smallest image mkfs.ext4 makes usable (journal and metadata take the first ~1 MiB). */
export const MIN_HOME_IMAGE_BYTES = 4 * 1024 * 1024;

/** The image to mount, or why there is none (the status says so). */
export type HomeImage = { ok: true; image: string; mountPoint: string; sizeBytes: number } | { ok: false; reason: string };

/**
 * Create the home image for `mountPoint` (the host home directory) once, owned inside by the
 * sandbox's uid. An existing image keeps the size it was made with (its files stay; delete the
 * `.img` to apply a new cap).
 */
export async function prepareHomeImage(mountPoint: string, bytes: number, identity: SandboxIdentity): Promise<HomeImage> {
  if (identity.kind !== "drop") return { ok: false, reason: "mounting a home image needs root" };
  if (bytes < MIN_HOME_IMAGE_BYTES) return { ok: false, reason: `a home image needs at least ${MIN_HOME_IMAGE_BYTES} bytes` };
  const tools = await findTools();
  if (!tools) return { ok: false, reason: "install the Debian packages e2fsprogs, util-linux and mount for a kept, size-capped home" };
  const image = `${mountPoint}.img`;
  const existing = await stat(image).catch(() => null);
  if (existing) return { ok: true, image, mountPoint, sizeBytes: existing.size };
  const temp = `${image}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(image), { recursive: true, mode: 0o700 });
    const file = await open(temp, "wx", 0o600);
    try {
      await file.truncate(Math.floor(bytes)); // sparse: disk is used only as the home fills
    } finally {
      await file.close();
    }
    // -m 0: no blocks reserved for root (the server is not root); root_owner: the home is the server's.
    await run(tools.mkfs, ["-q", "-F", "-m", "0", "-E", `root_owner=${identity.uid}:${identity.gid}`, temp], { timeout: 60_000 });
    await rename(temp, image);
    return { ok: true, image, mountPoint, sizeBytes: Math.floor(bytes) };
  } catch (error) {
    await rm(temp, { force: true });
    return { ok: false, reason: `cannot create the home image: ${(error as Error).message.split("\n")[0]}` };
  }
}

async function findTools(): Promise<{ mkfs: string } | null> {
  const found: Record<string, string> = {};
  for (const [name, candidates] of Object.entries(HOME_IMAGE_TOOLS)) {
    for (const candidate of candidates) {
      if (
        await access(candidate).then(
          () => true,
          () => false,
        )
      ) {
        found[name] = candidate;
        break;
      }
    }
    if (!found[name]) return null;
  }
  return { mkfs: found.mkfs };
}

/** How long `detached` waits for the kernel to free a home image's loop device (the launcher waits as long before mounting). */
const DETACH_WAIT_MS = 15_000;

/**
 * Resolves once no loop device backs `image` (the sandbox that mounted it has ended and its mount
 * namespace is gone), or after `DETACH_WAIT_MS`; never rejects.
 */
export async function detached(image: string, waitMs = DETACH_WAIT_MS): Promise<void> {
  const losetup = await findTool(HOME_IMAGE_TOOLS.losetup);
  if (!losetup) return;
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const attached = await run(losetup, ["-j", image], { timeout: 5_000 }).then(
      ({ stdout }) => stdout.trim() !== "",
      () => false,
    );
    if (!attached) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function findTool(candidates: string[]): Promise<string | null> {
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return null;
}
