import type { NextConfig } from "next";

// The app's body cap (`SWITCHBOARD_MAX_BODY_BYTES`, default 1 MB, as `maxBodyBytes()` in lib/http.ts
// reads it): Next buffers a request's body for proxy.ts before any route runs, 10 MB by default.
const bodyCap = Number(process.env.SWITCHBOARD_MAX_BODY_BYTES);
const maxBodyBytes = Number.isFinite(bodyCap) && bodyCap > 0 ? bodyCap : 1_000_000;

const nextConfig: NextConfig = {
  // Native and process-spawning packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "oidc-provider", "@modelcontextprotocol/client", "@modelcontextprotocol/core", "undici"],
  poweredByHeader: false,
  // Server code is never downloaded: readable names in stack traces and CPU profiles are worth more
  // than the bytes minifying would save (docs/performance.md profiles the server bundle).
  // A body declared over the cap is refused unread by the front door (lib/lane/front-door.ts); one
  // sent without a length is buffered only up to the cap, and a route reading it then sees it cut short.
  experimental: { serverMinification: false, proxyClientMaxBodySize: maxBodyBytes },
  // `npm test` runs `tsc --noEmit` over the whole project first; skipping it here halves build time.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
