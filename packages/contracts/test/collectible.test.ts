import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { diginoorCollectibleAbi, diginoorCollectibleBytecode } from "../generated/diginoorCollectible.js";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import { MINTER_ROLE } from "../src/deploy.js";
import {
  BASE_URI,
  col,
  deployAttacker,
  eventOf,
  expectRevert,
  type Fixture,
  minterMint,
  nextOrderId,
  readCol,
  useFixture,
  type Wallet,
  zeroAddress,
} from "./fixture.js";

let f: Fixture;
useFixture((chain) => {
  f = chain;
});

const alice = ANVIL_ADDRESSES[3];

describe("DiginoorCollectible deployment", () => {
  it("has name, symbol, admin, minter roles and default royalty", async () => {
    expect(await readCol(f, "name")).toBe("Diginoor Collectible");
    expect(await readCol(f, "symbol")).toBe("DGNR");
    expect(await readCol(f, "defaultRoyaltyBps")).toBe(1000);
    expect(await readCol(f, "MAX_ROYALTY_BPS")).toBe(1500);
    expect(await readCol(f, "MINTER_ROLE")).toBe(MINTER_ROLE);
    expect(await readCol(f, "hasRole", ["0x".padEnd(66, "0"), ANVIL_ADDRESSES[0]])).toBe(true);
    expect(await readCol(f, "hasRole", [MINTER_ROLE, f.marketplace])).toBe(true);
    expect(await readCol(f, "hasRole", [MINTER_ROLE, ANVIL_ADDRESSES[1]])).toBe(true);
    expect(await readCol(f, "hasRole", [MINTER_ROLE, ANVIL_ADDRESSES[3]])).toBe(false);
  });

  it("supports ERC-721, ERC-2981, ERC-4906, AccessControl and ERC-165 interfaces", async () => {
    for (const id of ["0x80ac58cd", "0x5b5e139f", "0x2a55205a", "0x49064906", "0x7965db0b", "0x01ffc9a7"]) {
      expect(await readCol(f, "supportsInterface", [id])).toBe(true);
    }
    expect(await readCol(f, "supportsInterface", ["0xffffffff"])).toBe(false);
  });

  it("constructor rejects a zero admin, a royalty above the cap and no marketplace", async () => {
    const deploy = (args: readonly [Hex, number, string, number, Hex, Hex]) =>
      f.admin.deployContract({ abi: diginoorCollectibleAbi, bytecode: diginoorCollectibleBytecode, args });
    const mkt = ANVIL_ADDRESSES[7];
    await expectRevert(
      deploy([zeroAddress, 0, BASE_URI, 1000, mkt, zeroAddress]),
      "AccessControlInvalidDefaultAdmin",
    );
    await expectRevert(deploy([ANVIL_ADDRESSES[0], 0, BASE_URI, 1501, mkt, zeroAddress]), "RoyaltyTooHigh");
    await expectRevert(
      deploy([ANVIL_ADDRESSES[0], 0, BASE_URI, 1000, zeroAddress, zeroAddress]),
      "InvalidMarketplace",
    );
  });
});

describe("mintForOrder", () => {
  it("mints tokenId = uint256(orderId) with catalogue data, royalty and events", async () => {
    const orderId = nextOrderId();
    const { receipt, tokenId } = await minterMint(f, alice, { catalogueNftId: 99n, edition: 12, orderId });
    expect(tokenId).toBe(BigInt(orderId));
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(alice);
    expect(await readCol(f, "balanceOf", [alice])).toBe(1n);
    const info = await readCol<{
      catalogueNftId: bigint;
      edition: number;
      royaltyReceiver: string;
      royaltyBps: number;
    }>(f, "tokenInfo", [tokenId]);
    expect(info).toEqual({
      royaltyReceiver: f.productionHouse,
      royaltyBps: 1000,
      catalogueNftId: 99n,
      edition: 12,
      version: 0,
    });
    expect(await readCol(f, "tokenState", [tokenId])).toEqual([alice, 0, 0, f.productionHouse, 1000]);
    expect(await readCol(f, "tokenURI", [tokenId])).toBe(`${BASE_URI}${tokenId}`);
    expect(await readCol(f, "royaltyInfo", [tokenId, 1000n])).toEqual([f.productionHouse, 100n]);
    expect(await readCol(f, "isOrderMinted", [orderId])).toBe(true);
    expect(await readCol(f, "exists", [tokenId])).toBe(true);
    expect(eventOf(receipt, "CollectibleMinted")).toEqual({
      tokenId,
      catalogueNftId: 99n,
      edition: 12,
      royaltyReceiver: f.productionHouse,
      royaltyBps: 1000,
    });
    expect(eventOf(receipt, "Transfer")).toEqual({ from: zeroAddress, to: alice, tokenId });
  });

  it("reverts for non-minters", async () => {
    await expectRevert(
      col(f, f.wallets[3] as Wallet, "mintForOrder", [alice, 1n, 1, f.productionHouse, nextOrderId()]),
      "AccessControlUnauthorizedAccount",
    );
  });

  it("reverts on a zero order id, a zero royalty receiver and a zero recipient", async () => {
    await expectRevert(
      col(f, f.minter, "mintForOrder", [alice, 1n, 1, f.productionHouse, `0x${"0".repeat(64)}`]),
      "InvalidOrderId",
    );
    await expectRevert(
      col(f, f.minter, "mintForOrder", [alice, 1n, 1, zeroAddress, nextOrderId()]),
      "InvalidRoyaltyReceiver",
    );
    await expectRevert(
      col(f, f.minter, "mintForOrder", [zeroAddress, 1n, 1, f.productionHouse, nextOrderId()]),
      "ERC721InvalidReceiver",
    );
  });

  it("versions count transfers and single-approval changes; revoking an operator bumps the owner's epoch", async () => {
    const { tokenId } = await minterMint(f, alice);
    const bob = f.wallets[4] as Wallet;
    await col(f, f.wallets[3] as Wallet, "transferFrom", [alice, bob.account.address, tokenId]);
    await col(f, bob, "safeTransferFrom", [bob.account.address, alice, tokenId]);
    expect(await readCol(f, "tokenState", [tokenId])).toEqual([alice, 2, 0, f.productionHouse, 1000]);
    expect((await readCol<{ version: number }>(f, "tokenInfo", [tokenId])).version).toBe(2);
    await col(f, f.wallets[3] as Wallet, "approve", [bob.account.address, tokenId]);
    expect((await readCol<{ version: number }>(f, "tokenInfo", [tokenId])).version).toBe(3);
    // Revoking an operator that was not approved changes nothing; revoking one that was bumps the epoch.
    await col(f, f.wallets[3] as Wallet, "setApprovalForAll", [bob.account.address, false]);
    expect(await readCol(f, "approvalEpoch", [alice])).toBe(0);
    await col(f, f.wallets[3] as Wallet, "setApprovalForAll", [bob.account.address, true]);
    await col(f, f.wallets[3] as Wallet, "setApprovalForAll", [bob.account.address, false]);
    expect(await readCol(f, "approvalEpoch", [alice])).toBe(1);
    expect(await readCol(f, "tokenState", [tokenId])).toEqual([alice, 3, 1, f.productionHouse, 1000]);
    expect(await readCol(f, "tokenState", [tokenId + 1n])).toEqual([zeroAddress, 0, 0, zeroAddress, 0]);
  });

  it("rejects catalogue ids that do not fit in 32 bits", async () => {
    await expectRevert(minterMint(f, alice, { catalogueNftId: 2n ** 32n }), "CatalogueIdTooLarge");
    const { tokenId } = await minterMint(f, alice, { catalogueNftId: 2n ** 32n - 1n });
    expect((await readCol<{ catalogueNftId: bigint }>(f, "tokenInfo", [tokenId])).catalogueNftId).toBe(
      2n ** 32n - 1n,
    );
  });

  it("mints an order id only once", async () => {
    const orderId = nextOrderId();
    await minterMint(f, alice, { orderId });
    await expectRevert(minterMint(f, ANVIL_ADDRESSES[4], { orderId }), "OrderAlreadyMinted");
  });

  it("refuses to mint to a contract that cannot or will not receive ERC-721", async () => {
    // The marketplace has no onERC721Received.
    await expectRevert(minterMint(f, f.marketplace), "ERC721InvalidReceiver");
    // A receiver that reverts: its reason bubbles up.
    const attacker = await deployAttacker(f, f.wallets[3] as Wallet);
    await send3(attacker);
    await expectRevert(minterMint(f, attacker), "Error");
  });

  it("unknown tokens: tokenInfo and tokenURI revert, royaltyInfo is empty", async () => {
    await expectRevert(readCol(f, "tokenInfo", [5n]), "ERC721NonexistentToken");
    await expectRevert(readCol(f, "tokenURI", [5n]), "ERC721NonexistentToken");
    expect(await readCol(f, "royaltyInfo", [5n, 100n])).toEqual([zeroAddress, 0n]);
    expect(await readCol(f, "exists", [5n])).toBe(false);
  });
});

async function send3(attacker: Hex) {
  const { attack } = await import("./fixture.js");
  await attack(f, f.wallets[3] as Wallet, attacker, "configure", [false, true, zeroAddress, 0n, "0x"]);
}

describe("admin functions", () => {
  it("setBaseURI updates tokenURI and emits BaseURIUpdated + BatchMetadataUpdate", async () => {
    const { tokenId } = await minterMint(f, alice);
    const r = await col(f, f.admin, "setBaseURI", ["https://cdn.example/api/v1/metadata/"]);
    expect(eventOf(r, "BaseURIUpdated")).toEqual({ baseURI: "https://cdn.example/api/v1/metadata/" });
    expect(eventOf(r, "BatchMetadataUpdate")).toEqual({ _fromTokenId: 0n, _toTokenId: 2n ** 256n - 1n });
    expect(await readCol(f, "tokenURI", [tokenId])).toBe(`https://cdn.example/api/v1/metadata/${tokenId}`);
    await expectRevert(col(f, f.minter, "setBaseURI", ["x"]), "AccessControlUnauthorizedAccount");
  });

  it("setTokenRoyalty changes receiver and rate, capped", async () => {
    const { tokenId } = await minterMint(f, alice);
    const newReceiver = ANVIL_ADDRESSES[8];
    const r = await col(f, f.admin, "setTokenRoyalty", [tokenId, newReceiver, 1500]);
    expect(eventOf(r, "TokenRoyaltyUpdated")).toEqual({ tokenId, receiver: newReceiver, royaltyBps: 1500 });
    expect(await readCol(f, "royaltyInfo", [tokenId, 10_000n])).toEqual([newReceiver, 1500n]);
    await expectRevert(col(f, f.admin, "setTokenRoyalty", [tokenId, newReceiver, 1501]), "RoyaltyTooHigh");
    await expectRevert(
      col(f, f.admin, "setTokenRoyalty", [tokenId, zeroAddress, 100]),
      "InvalidRoyaltyReceiver",
    );
    await expectRevert(
      col(f, f.admin, "setTokenRoyalty", [tokenId + 1n, newReceiver, 100]),
      "ERC721NonexistentToken",
    );
    await expectRevert(
      col(f, f.minter, "setTokenRoyalty", [tokenId, newReceiver, 100]),
      "AccessControlUnauthorizedAccount",
    );
  });

  it("admin can grant and revoke the minter role", async () => {
    const bob = f.wallets[4] as Wallet;
    await col(f, f.admin, "grantRole", [MINTER_ROLE, bob.account.address]);
    await col(f, bob, "mintForOrder", [alice, 1n, 1, f.productionHouse, nextOrderId()]);
    await col(f, f.admin, "revokeRole", [MINTER_ROLE, bob.account.address]);
    await expectRevert(
      col(f, bob, "mintForOrder", [alice, 1n, 1, f.productionHouse, nextOrderId()]),
      "AccessControlUnauthorizedAccount",
    );
  });
});
