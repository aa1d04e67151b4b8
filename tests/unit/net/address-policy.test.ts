import { describe, expect, it } from "vitest";
import {
  AllowListError,
  classifyAddress,
  isAddressAllowListed,
  isHostAllowListed,
  parseAllowedHosts,
  parseIpLiteral,
  type BlockCategory,
} from "@/lib/net";

describe("parseIpLiteral", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["0xA9.0376.43518", "169.254.169.254"],
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["::", "::"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["::FFFF:7F00:1", "::ffff:7f00:1"],
    ["[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["64:ff9b::10.0.0.1", "64:ff9b::a00:1"],
  ])("%s -> %s", (input, text) => {
    expect(parseIpLiteral(input)?.text).toBe(text);
  });

  it.each([
    "example.com",
    "256.0.0.1",
    "1.2.3.4.5",
    "4294967296",
    "127.0.0.1x",
    "08.0.0.1",
    "0x1g",
    "::1::2",
    "1:2:3:4:5:6:7:8:9",
    "::ffff:01.2.3.4",
    "",
    "%eth0",
  ])("%s is not an IP literal", (input) => {
    expect(parseIpLiteral(input)).toBeNull();
  });
});

const BLOCKED: Array<[string, BlockCategory]> = [
  // IPv4 loopback in every spelling
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["2130706433", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["0x7f.1", "loopback"],
  ["127.1", "loopback"],
  // this-network / unspecified
  ["0.0.0.0", "unspecified"],
  ["0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  // private
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  // link-local and cloud metadata
  ["169.254.169.254", "link-local"],
  ["0xa9fea9fe", "link-local"],
  ["2852039166", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  // CGNAT (includes Alibaba's metadata 100.100.100.200)
  ["100.64.0.1", "cgnat"],
  ["100.100.100.200", "cgnat"],
  // IPv6 loopback, unique-local (incl. AWS IPv6 metadata), site-local
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["fc00::1", "unique-local"],
  ["fd00:ec2::254", "unique-local"],
  ["fec0::1", "site-local"],
  // IPv4-mapped IPv6 in every spelling
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["[::ffff:169.254.169.254]", "link-local"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["0:0:0:0:0:ffff:10.0.0.1", "private"],
  ["::ffff:0.0.0.0", "unspecified"],
  // IPv4-translated (RFC 2765), IPv4-compatible, NAT64, 6to4
  ["::ffff:0:127.0.0.1", "loopback"],
  ["::127.0.0.1", "loopback"],
  ["::7f00:1", "loopback"],
  ["::8.8.8.8", "reserved"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a9fe:a9fe", "link-local"],
  ["64:ff9b:1::1", "reserved"],
  ["2002:7f00:1::", "loopback"],
  ["2002:a9fe:a9fe::1", "link-local"],
  ["2002:c0a8:101::", "private"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
  // multicast, broadcast, reserved, benchmarking, documentation
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.170", "reserved"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["2001:2::1", "benchmarking"],
  ["192.0.2.1", "documentation"],
  ["198.51.100.1", "documentation"],
  ["203.0.113.1", "documentation"],
  ["2001:db8::1", "documentation"],
  ["100::1", "reserved"],
  ["4000::1", "reserved"],
  ["not-an-ip", "not-an-ip"],
];

describe("classifyAddress", () => {
  it.each(BLOCKED)("%s is blocked as %s", (input, category) => {
    const verdict = classifyAddress(input);
    expect(verdict.blocked).toBe(true);
    if (verdict.blocked) {
      expect(verdict.category).toBe(category);
      expect(verdict.reason.length).toBeGreaterThan(0);
    }
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "2606:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ])("%s is allowed", (input) => {
    expect(classifyAddress(input).blocked).toBe(false);
  });

  it("says what the metadata address is and names the embedded IPv4", () => {
    const direct = classifyAddress("169.254.169.254");
    expect(direct.blocked && direct.reason).toBe("link-local (cloud metadata)");
    const mapped = classifyAddress("::ffff:169.254.169.254");
    expect(mapped.blocked && mapped.reason).toBe("link-local (cloud metadata) (IPv4-mapped 169.254.169.254)");
    const nat64 = classifyAddress("64:ff9b::127.0.0.1");
    expect(nat64.blocked && nat64.reason).toBe("loopback (NAT64 127.0.0.1)");
  });
});

describe("parseAllowedHosts", () => {
  it("splits host names, addresses and CIDRs", () => {
    const list = parseAllowedHosts(" intranet.example, 10.1.0.0/16, 127.0.0.1, localhost ,fd00::/8, Wiki.Corp.");
    expect([...list.hosts].sort()).toEqual(["intranet.example", "localhost", "wiki.corp"]);
    expect(list.networks).toEqual([
      { family: 4, network: "10.1.0.0", prefix: 16 },
      { family: 4, network: "127.0.0.1", prefix: 32 },
      { family: 6, network: "fd00::", prefix: 8 },
    ]);
  });

  it("is empty for an unset or blank variable", () => {
    expect(parseAllowedHosts(undefined)).toEqual({ hosts: new Set(), networks: [] });
    expect(parseAllowedHosts(" , ")).toEqual({ hosts: new Set(), networks: [] });
  });

  it.each(["10.0.0.0/33", "::/129", "10.0.0.0/x", "host:8080", "http://host", "*.corp", "a b", "host/16"])("rejects %s", (entry) => {
    expect(() => parseAllowedHosts(entry)).toThrow(AllowListError);
    try {
      parseAllowedHosts(entry);
    } catch (error) {
      expect((error as AllowListError).code).toBe("invalid_allow_list");
      expect((error as Error).message).toContain(entry);
    }
  });

  it("matches hosts exactly, case- and trailing-dot-insensitively", () => {
    const list = parseAllowedHosts("intranet.example");
    expect(isHostAllowListed(list, "INTRANET.example.")).toBe(true);
    expect(isHostAllowListed(list, "evil.intranet.example")).toBe(false);
    expect(isHostAllowListed(list, "intranet.example.evil")).toBe(false);
  });

  it("matches addresses against v4 and v6 networks, including IPv4 inside IPv6", () => {
    const list = parseAllowedHosts("10.1.0.0/16, 127.0.0.1, fd00:1::/32");
    const allowed = (ip: string) => isAddressAllowListed(list, parseIpLiteral(ip)!);
    expect(allowed("10.1.200.3")).toBe(true);
    expect(allowed("10.2.0.1")).toBe(false);
    expect(allowed("127.0.0.1")).toBe(true);
    expect(allowed("127.0.0.2")).toBe(false);
    expect(allowed("::ffff:127.0.0.1")).toBe(true);
    expect(allowed("fd00:1:abcd::1")).toBe(true);
    expect(allowed("fd00:2::1")).toBe(false);
    expect(isAddressAllowListed(parseAllowedHosts(""), parseIpLiteral("10.1.0.1")!)).toBe(false);
  });
});
