import type { Metadata } from "next";
import "./globals.css";
import { HydrationMarker } from "./_components/ui/hydration-marker";
import { Toaster } from "./_components/ui/primitives/toast";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  applicationName: "Switchboard",
  description: "Your team and your agent, connected to MCP servers.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">
        {children}
        <Toaster />
        <HydrationMarker />
      </body>
    </html>
  );
}
