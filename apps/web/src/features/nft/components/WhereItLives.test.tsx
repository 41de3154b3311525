// @vitest-environment happy-dom
// "Where it lives" (issue 25): a minted token's chain, contract, token id, owner and metadata URL as the
// API gives them, an explorer link only where the chain has one, and "not on chain yet" for an NFT
// none of whose editions is minted.
import type { TokenLocation } from "@diginoor/api/chain";
import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderPage } from "../../../test/fake-api.tsx";
import { WhereEditionsLive, WhereItLives } from "./WhereItLives.tsx";

afterEach(cleanup);

const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const OWNER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const local: TokenLocation = {
  tokenId: "12",
  standard: "ERC-721",
  chainId: 31337,
  chainName: "Local chain",
  contract: CONTRACT,
  owner: OWNER,
  ownerHandle: "priya",
  tokenUri: "http://localhost:3000/api/v1/metadata/12",
  onIpfs: false,
  explorer: null,
};

/** The value of the row labelled `label` in the panel's description list. */
function fact(region: HTMLElement, label: string): string {
  const dt = within(region).getByText(label, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

describe("Where it lives", () => {
  it("states where a minted token is, in full, from the API; no invented explorer link on the local chain", async () => {
    const sent = fakeApi({ "GET /api/v1/tokens/12/location": () => ({ body: local }) });
    renderPage(<WhereItLives tokenId="12" />);
    await screen.findByText(CONTRACT);
    const region = screen.getByRole("region", { name: "Where it lives" });
    expect(fact(region, "Chain")).toBe("Local chain (chain id 31337)");
    expect(fact(region, "Contract address")).toBe(CONTRACT);
    expect(fact(region, "Token id")).toBe("12");
    expect(fact(region, "Owner's wallet")).toContain(OWNER);
    expect(within(region).getByRole("link", { name: "@priya" }).getAttribute("href")).toBe("/u/priya");
    expect(fact(region, "Metadata (tokenURI)")).toContain("http://localhost:3000/api/v1/metadata/12");
    expect(fact(region, "Block explorer")).toMatch(/no public block explorer/);
    expect(within(region).queryByTestId("explorer-link")).toBeNull();
    expect(
      within(region)
        .getByText(/Import NFT/)
        .closest("li")?.textContent,
    ).toMatch(/contract address and the token id/);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/tokens/12/location"]);
  });

  it("links the explorer's page of the token where the chain has one, and says when metadata is on IPFS", async () => {
    const polygon: TokenLocation = {
      ...local,
      chainId: 137,
      chainName: "Polygon Mainnet",
      ownerHandle: null,
      tokenUri: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/metadata/12",
      onIpfs: true,
      explorer: {
        token: `https://polygonscan.com/nft/${CONTRACT}/12`,
        contract: `https://polygonscan.com/address/${CONTRACT}`,
        owner: `https://polygonscan.com/address/${OWNER}`,
      },
    };
    fakeApi({ "GET /api/v1/tokens/12/location": () => ({ body: polygon }) });
    renderPage(<WhereItLives tokenId="12" />);
    const link = await screen.findByTestId("explorer-link");
    expect(link.getAttribute("href")).toBe(`https://polygonscan.com/nft/${CONTRACT}/12`);
    expect(link.getAttribute("rel")).toContain("noopener");
    const region = screen.getByRole("region", { name: "Where it lives" });
    expect(fact(region, "Owner's wallet")).toBe(OWNER);
    expect(fact(region, "Metadata (tokenURI)")).toMatch(/^ipfs:\/\/bafy.*On IPFS/);
  });

  it("copies the full contract address", async () => {
    fakeApi({ "GET /api/v1/tokens/12/location": () => ({ body: local }) });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    renderPage(<WhereItLives tokenId="12" />);
    await user.click(await screen.findByRole("button", { name: "Copy contract address" }));
    expect(writeText).toHaveBeenCalledWith(CONTRACT);
    expect(await screen.findByText("Contract address copied")).toBeTruthy();
  });

  it("an NFT none of whose editions is minted is not on chain yet; minted editions link to their tokens", async () => {
    renderPage(<WhereEditionsLive mintedTokenIds={[]} />);
    const region = screen.getByRole("region", { name: "Where it lives" });
    expect(region.textContent).toMatch(/Not on chain yet/);
    cleanup();
    renderPage(<WhereEditionsLive mintedTokenIds={["3", "7"]} />);
    expect(screen.getByRole("link", { name: "Token #7" }).getAttribute("href")).toBe("/nfttransfer/7");
    expect(screen.queryByText(/Not on chain yet/)).toBeNull();
  });
});
