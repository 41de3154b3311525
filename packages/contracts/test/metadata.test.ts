// Issue 37 points 1 and 6: ERC-4906 kept (every change of what tokenURI serves announced), and ERC-7572's
// contractURI. Before the change: setTokenRoyalty emitted no MetadataUpdate, there was no way for the server
// to announce a console edit, and contractURI() reverted (no such function).
import { describe, expect, it } from "vitest";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import {
  BASE_URI,
  col,
  events,
  expectRevert,
  type Fixture,
  minterMint,
  readCol,
  useFixture,
  type Wallet,
} from "./fixture.js";

let f: Fixture;
useFixture((chain) => {
  f = chain;
});

const alice = ANVIL_ADDRESSES[3];
const MAX = 2n ** 256n - 1n;

/** The ERC-4906 and ERC-7572 events of a receipt, in order. */
function metadataEvents(r: Awaited<ReturnType<typeof col>>) {
  return events(r)
    .filter((e) => ["MetadataUpdate", "BatchMetadataUpdate", "ContractURIUpdated"].includes(e.eventName))
    .map((e) => ({ event: e.eventName, ...e.args, from: e.address.toLowerCase() }));
}

describe("ERC-4906: every change of a token's metadata is announced", () => {
  it("an on-chain royalty change emits MetadataUpdate(tokenId) (the metadata shows the royalty)", async () => {
    const { tokenId } = await minterMint(f, alice);
    const r = await col(f, f.admin, "setTokenRoyalty", [tokenId, f.productionHouse, 500]);
    expect(metadataEvents(r)).toEqual([
      { event: "MetadataUpdate", _tokenId: tokenId, from: f.collectible.toLowerCase() },
    ]);
  });

  it("refreshMetadata: MetadataUpdate for a single token, BatchMetadataUpdate for a range, in order", async () => {
    const ranges = [
      { fromTokenId: 7n, toTokenId: 7n },
      { fromTokenId: 10n, toTokenId: 20n },
      { fromTokenId: 2n ** 64n + 1n, toTokenId: 2n ** 64n + 1n },
    ];
    const c = f.collectible.toLowerCase();
    for (const sender of [f.minter, f.admin]) {
      const r = await col(f, sender, "refreshMetadata", [ranges]);
      expect(metadataEvents(r)).toEqual([
        { event: "MetadataUpdate", _tokenId: 7n, from: c },
        { event: "BatchMetadataUpdate", _fromTokenId: 10n, _toTokenId: 20n, from: c },
        { event: "MetadataUpdate", _tokenId: 2n ** 64n + 1n, from: c },
      ]);
    }
  });

  it("refreshMetadata refuses a reversed range and any sender that is neither the admin nor a minter", async () => {
    await expectRevert(
      col(f, f.minter, "refreshMetadata", [[{ fromTokenId: 5n, toTokenId: 4n }]]),
      "InvalidTokenRange",
    );
    for (const i of [2, 3, 8, 9]) {
      await expectRevert(
        col(f, f.wallets[i] as Wallet, "refreshMetadata", [[{ fromTokenId: 1n, toTokenId: 1n }]]),
        "AccessControlUnauthorizedAccount",
      );
    }
  });
});

describe("ERC-7572: contractURI", () => {
  it("names the collection's metadata beside the tokens' and moves with the base URI, announcing it", async () => {
    expect(await readCol(f, "contractURI")).toBe(`${BASE_URI}contract`);
    const base = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/metadata/";
    const r = await col(f, f.admin, "setBaseURI", [base]);
    const c = f.collectible.toLowerCase();
    expect(metadataEvents(r)).toEqual([
      { event: "BatchMetadataUpdate", _fromTokenId: 0n, _toTokenId: MAX, from: c },
      { event: "ContractURIUpdated", from: c },
    ]);
    expect(await readCol(f, "contractURI")).toBe(`${base}contract`);
  });
});
