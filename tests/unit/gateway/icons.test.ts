import { describe, expect, it, vi } from "vitest";
import { gatewayIcons } from "@/lib/use-cases/gateway/icons";
import { MAX_ICON_BYTES } from "@/lib/use-cases/server-icons";

vi.mock("server-only", () => ({}));

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const data = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

describe("the server icons the gateway passes on", () => {
  it("keeps data: icons whose bytes are a raster image, labelled by those bytes, and only well-formed sizes", () => {
    expect(gatewayIcons([{ src: data("image/jpeg", PNG), mimeType: "image/jpeg", sizes: ["48x48", "<script>", "any"] }])).toEqual([
      { src: data("image/png", PNG), mimeType: "image/png", sizes: ["48x48", "any"] },
    ]);
  });

  it("drops what a client must not be handed: URLs a server names, SVG, bytes that are no image, oversized icons", () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_ICON_BYTES)]);
    expect(
      gatewayIcons([
        { src: "https://example.com/server.png", mimeType: "image/png" },
        { src: data("image/svg+xml", svg), mimeType: "image/svg+xml" },
        { src: data("image/png", Buffer.from("not an image")), mimeType: "image/png" },
        { src: data("image/png", big), mimeType: "image/png" },
      ]),
    ).toEqual([]);
    expect(gatewayIcons(undefined)).toEqual([]);
  });

  it("passes at most four", () => {
    expect(gatewayIcons(Array.from({ length: 10 }, () => ({ src: data("image/png", PNG) })))).toHaveLength(4);
  });
});
