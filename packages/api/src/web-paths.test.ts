import { describe, expect, it } from "vitest";
import { isWebPagePath } from "./web-paths.ts";

describe("isWebPagePath", () => {
  it.each([
    "/",
    "/collections",
    "/Kabali",
    "/PasumaiNayaganVivek",
    "/how%20it%20works",
    "/how it works",
    "/nftdetail/abc123XYZ",
    "/profile/edit_profile",
    "/marketplace/",
  ])("knows the page %s", (p) => expect(isWebPagePath(p)).toBe(true));

  it.each([
    "/nope",
    "/nftdetail",
    "/nftdetail/a/b",
    "/kabali2",
    "/%E0%A4%A",
    "/collections/x",
    "/api/v1/nfts",
  ])("does not know %s", (p) => expect(isWebPagePath(p)).toBe(false));
});
