import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-spawning packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@modelcontextprotocol/sdk", "undici"],
  poweredByHeader: false,
};

export default nextConfig;
