import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next.ts";

describe("safeNextPath", () => {
  it("keeps same-site relative paths with their query and hash", () => {
    expect(safeNextPath("/profile")).toBe("/profile");
    expect(safeNextPath("/nftdetail/42?tab=bids#history")).toBe("/nftdetail/42?tab=bids#history");
  });

  it("refuses absolute, protocol-relative and backslash URLs", () => {
    expect(safeNextPath("https://evil.example/")).toBeNull();
    expect(safeNextPath("//evil.example/x")).toBeNull();
    expect(safeNextPath("/\\evil.example")).toBeNull();
    expect(safeNextPath("javascript:alert(1)")).toBeNull();
    expect(safeNextPath("/a\nb")).toBeNull();
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath("profile")).toBeNull();
    expect(safeNextPath("")).toBeNull();
  });

  it("never returns a path another host could be read from, whatever the dot segments or escapes", () => {
    for (const raw of [
      "/.//evil.example",
      "/./\\evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "/%2E%2E//evil.example/x?y=1",
      "/%2F%2Fevil.example",
      "/%2f/evil.example",
      "/%5Cevil.example",
      "/%5C%5Cevil.example",
      "/%252F%252Fevil.example",
      "/%25252F%25252Fevil.example",
      "/%09/evil.example",
      "/%E0%A4%A",
    ]) {
      const out = safeNextPath(raw);
      expect(out, raw).toBeNull();
    }
    // Whatever comes back is a same-site path: one leading slash, no backslash, not decodable into "//".
    for (const raw of ["/./profile", "/a/../profile", "/%2e/profile", "/u/%E0%AE%A4"]) {
      const out = safeNextPath(raw);
      expect(out, raw).toMatch(/^\/(?![/\\])/);
      expect(decodeURIComponent(out ?? "")).not.toMatch(/^\/[/\\]/);
    }
    expect(safeNextPath("/a/../profile")).toBe("/profile");
  });

  it("refuses the accounts pages themselves, so sign-in cannot loop", () => {
    expect(safeNextPath("/login")).toBeNull();
    expect(safeNextPath("/Login?next=/x")).toBeNull();
    expect(safeNextPath("/signup")).toBeNull();
  });
});
