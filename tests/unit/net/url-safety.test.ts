import { describe, expect, it } from "vitest";
import { UnsafeUrlError, assertHttpsUnlessLoopback, assertSafeDisplayUrl, displayUrl, isSafeLinkUrl } from "@/lib/net";

describe("isSafeLinkUrl / assertSafeDisplayUrl", () => {
  it.each(["https://example.com/a?b=c", "http://example.com", "HTTPS://EXAMPLE.COM"])("%s is a safe link", (url) => {
    expect(isSafeLinkUrl(url)).toBe(true);
    expect(assertSafeDisplayUrl(url)).toBeInstanceOf(URL);
  });

  it.each([
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "\u0001javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://example.com/",
    "/relative/path",
    "not a url",
  ])("%s is refused", (url) => {
    expect(isSafeLinkUrl(url)).toBe(false);
    expect(() => assertSafeDisplayUrl(url)).toThrow(UnsafeUrlError);
  });
});

describe("assertHttpsUnlessLoopback", () => {
  it("accepts https always", () => {
    expect(assertHttpsUnlessLoopback("https://auth.example.com/authorize").host).toBe("auth.example.com");
  });

  it.each(["http://localhost:3000/cb", "http://127.0.0.1/", "http://[::1]:8080/", "http://app.localhost/", "http://127.1/"])(
    "accepts %s only when loopback http is allowed",
    (url) => {
      expect(assertHttpsUnlessLoopback(url, { allowLoopbackHttp: true })).toBeInstanceOf(URL);
      expect(() => assertHttpsUnlessLoopback(url)).toThrow(/https is required/);
    },
  );

  it.each(["http://auth.example.com/", "http://10.0.0.1/", "http://localhost.evil.com/", "javascript:alert(1)"])("refuses %s", (url) => {
    try {
      assertHttpsUnlessLoopback(url, { allowLoopbackHttp: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UnsafeUrlError);
      expect(["insecure_url", "unsafe_url"]).toContain((error as UnsafeUrlError).code);
    }
  });
});

describe("displayUrl", () => {
  it("hides credentials and the query", () => {
    expect(displayUrl("https://user:hunter2@example.com:8443/token?code=abc")).toBe("https://***@example.com:8443/token?…");
  });
});
