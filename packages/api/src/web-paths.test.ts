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
    "/paymentstatus/bossEntry/0b6f1a8e-1d2c-4b7a-9f3e-2a1b3c4d5e6f",
    "/paymentstatus/bossEntry/0b6f1a8e-1d2c-4b7a-9f3e-2a1b3c4d5e6f/return",
    "/paymentstatus/bossEntry/0b6f1a8e-1d2c-4b7a-9f3e-2a1b3c4d5e6f/cancelled/x",
    "/Nft_conformation/bossEntry",
  ])("knows the page %s", (p) => expect(isWebPagePath(p)).toBe(true));

  it.each([
    "/nope",
    "/nftdetail",
    "/nftdetail/a/b",
    "/kabali2",
    "/%E0%A4%A",
    "/collections/x",
    "/api/v1/nfts",
    "/paymentstatus/bossEntry",
    "/paymentstatusX/a/b",
  ])("does not know %s", (p) => expect(isWebPagePath(p)).toBe(false));
});
