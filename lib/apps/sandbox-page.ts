/**
 * The page an MCP App's iframe loads first (docs/mcp-apps.md#the-frame). It is served with the app's
 * own CSP (`sandbox allow-scripts`, so an opaque origin), tells the host it is ready with the
 * extension's `ui/notifications/sandbox-proxy-ready`, and replaces itself with the HTML the host
 * sends in `ui/notifications/sandbox-resource-ready` — in the same document, so the CSP stays.
 */
import { type AppCsp, appFrameCsp } from "./app-csp";

const BOOTSTRAP = `(function () {
  var host = window.parent;
  function onMessage(event) {
    if (event.source !== host) return;
    var m = event.data;
    if (!m || m.jsonrpc !== "2.0" || m.method !== "ui/notifications/sandbox-resource-ready") return;
    if (!m.params || typeof m.params.html !== "string") return;
    window.removeEventListener("message", onMessage);
    document.open();
    document.write(m.params.html);
    document.close();
  }
  window.addEventListener("message", onMessage);
  host.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
})();`;

/** The bootstrap page and the headers it must be served with. */
export function sandboxPage(csp: AppCsp, appOrigin: string): { body: string; headers: Record<string, string> } {
  return {
    body: `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${BOOTSTRAP}</script></body></html>`,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": appFrameCsp(csp, appOrigin),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      // The app gets none of the powerful features, whatever it declares.
      "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), clipboard-read=()",
    },
  };
}

/** Where the proxy must leave the CSP and framing headers to the route (the frame sets its own). */
export const SANDBOX_PATH = "/api/apps/sandbox";
