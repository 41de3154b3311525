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

  it("refuses the accounts pages themselves, so sign-in cannot loop", () => {
    expect(safeNextPath("/login")).toBeNull();
    expect(safeNextPath("/Login?next=/x")).toBeNull();
    expect(safeNextPath("/signup")).toBeNull();
  });
});
