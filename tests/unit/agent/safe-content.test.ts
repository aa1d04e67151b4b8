import { describe, expect, it } from "vitest";
import { isSafeLinkUrl } from "@/lib/net";
import { markdownUrl, mediaDataUrl, safeHref } from "@/lib/agent/safe-content";
import { tableRows } from "@/lib/agent/structured-table";
import { expandTemplate, templateVariables } from "@/lib/agent/uri-template";

const URLS = [
  "https://example.com/a?b=c",
  "http://localhost:3000/x",
  "javascript:alert(1)",
  " javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:image/png;base64,AAAA",
  "file:///etc/passwd",
  "vbscript:msgbox",
  "mailto:a@b.c",
  "//evil.example/x",
  "/relative/path",
  "",
  "https://user:pass@example.com/",
];

describe("safe link URLs", () => {
  it.each(URLS)("safeHref agrees with lib/net isSafeLinkUrl for %j", (url) => {
    expect(safeHref(url) !== undefined).toBe(url !== "" && isSafeLinkUrl(url));
  });

  it("never lets a script or data URL through markdown", () => {
    expect(markdownUrl("javascript:alert(1)")).toBe("");
    expect(markdownUrl("data:text/html,x")).toBe("");
    expect(markdownUrl("https://example.com/")).toBe("https://example.com/");
  });
});

describe("media data URLs", () => {
  it("builds data URLs only for allow-listed types and real base64", () => {
    expect(mediaDataUrl("image", "image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(mediaDataUrl("image", "IMAGE/PNG", "iVBO\nRw0K")).toBe("data:image/png;base64,iVBORw0K");
    expect(mediaDataUrl("audio", "audio/wav", "UklGRg==")).toBe("data:audio/wav;base64,UklGRg==");
    expect(mediaDataUrl("image", "image/svg+xml", "PHN2Zz4=")).toBeUndefined();
    expect(mediaDataUrl("image", "text/html", "PGI+")).toBeUndefined();
    expect(mediaDataUrl("image", "image/png;x=1", "AAAA")).toBeUndefined();
    expect(mediaDataUrl("image", "image/png", 'AAAA"><script>')).toBeUndefined();
    expect(mediaDataUrl("audio", "image/png", "AAAA")).toBeUndefined();
    expect(mediaDataUrl("image", undefined, "AAAA")).toBeUndefined();
  });
});

describe("structured content as a table", () => {
  it("uses a table for lists of flat records only", () => {
    expect(
      tableRows([
        { a: 1, b: "x" },
        { a: 2, c: null },
      ]),
    ).toEqual({
      columns: ["a", "b", "c"],
      rows: [
        { a: 1, b: "x" },
        { a: 2, c: null },
      ],
    });
    expect(tableRows({ items: [{ a: 1 }] })?.columns).toEqual(["a"]);
    expect(tableRows({ temperature: 20, conditions: "sunny" })).toBeNull();
    expect(tableRows([{ a: { nested: 1 } }])).toBeNull();
    expect(tableRows([])).toBeNull();
  });
});

describe("resource template expansion", () => {
  it("lists variables and expands simple, reserved and query expressions", () => {
    expect(templateVariables("demo://resource/dynamic/text/{index}")).toEqual(["index"]);
    expect(templateVariables("file:///{+path}{?rev,mode}")).toEqual(["path", "rev", "mode"]);
    expect(expandTemplate("demo://r/{index}", { index: "a b/c" })).toBe("demo://r/a%20b%2Fc");
    expect(expandTemplate("file:///{+path}", { path: "dir/a b.txt" })).toBe("file:///dir/a%20b.txt");
    expect(expandTemplate("x://q{?a,b}", { a: "1" })).toBe("x://q?a=1");
  });
});
