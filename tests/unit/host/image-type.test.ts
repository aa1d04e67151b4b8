/** Server icons are served only when their bytes are a PNG, JPEG, GIF or WebP image (an SVG can carry script). */
import { describe, expect, it } from "vitest";
import { rasterType } from "@/lib/use-cases/image-type";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("rasterType", () => {
  it.each([
    ["image/png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ["image/jpeg", bytes(0xff, 0xd8, 0xff, 0xe0)],
    ["image/gif", bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61)],
    ["image/webp", bytes(0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50)],
  ])("recognises %s", (type, data) => {
    expect(rasterType(data)).toBe(type);
  });

  it.each([
    ["svg", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ["html", new TextEncoder().encode("<html><body>hi</body></html>")],
    ["riff that is not webp", bytes(0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45)],
    ["empty", bytes()],
  ])("refuses %s", (_label, data) => {
    expect(rasterType(data)).toBeNull();
  });
});
