// "Where it lives" (issue 25): where a token is on the chain, plainly, so a holder can find it in any
// wallet or marketplace without us. Everything comes from GET /api/v1/tokens/:id/location (the chain
// and the indexer); a chain without a block explorer gets no invented link.
import type { TokenLocation, tokenLocationEndpoints } from "@diginoor/api/chain";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import { callApi } from "../../../lib/api.ts";
import { CopyIcon } from "../../../ui/icons.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { ErrorState } from "../../../ui/ErrorState.tsx";
import { useToast } from "../../../ui/Toast.tsx";
import "./where.css";

export function useTokenLocation(tokenId: string) {
  return useQuery({
    queryKey: ["token", tokenId, "location"],
    queryFn: ({ signal }) =>
      callApi<typeof tokenLocationEndpoints.getTokenLocation>("GET /api/v1/tokens/{tokenId}/location", {
        params: { tokenId },
        signal,
      }),
    staleTime: 60_000,
  });
}

/** A full value (address, URL) people copy: shown whole, wrapped, with a copy button. */
function Copyable({ value, what }: { value: string; what: string }) {
  const toast = useToast();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${what} copied`);
    } catch {
      toast.error(`Couldn't copy. Select the ${what.toLowerCase()} and copy it instead.`);
    }
  }
  return (
    <span className="where-copyable">
      <code translate="no">{value}</code>
      <button type="button" className="icon-btn" onClick={copy} aria-label={`Copy ${what.toLowerCase()}`}>
        <CopyIcon width={16} height={16} />
      </button>
    </span>
  );
}

function Panel({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  const titleId = useId();
  return (
    <section className="where" aria-labelledby={titleId}>
      <h2 id={titleId}>Where it lives</h2>
      {lead}
      {children}
    </section>
  );
}

/** The panel of a minted token: chain, contract, token id, owner, metadata URL, and how to see it elsewhere. */
export function WhereItLives({ tokenId }: { tokenId: string }) {
  const location = useTokenLocation(tokenId);
  if (location.isError) {
    return (
      <Panel>
        <ErrorState
          title="We couldn't read where this token lives"
          error={location.error}
          onRetry={() => location.refetch()}
        />
      </Panel>
    );
  }
  if (!location.data) {
    return (
      <Panel>
        <Skeleton height={240} radius="var(--radius-lg)" />
      </Panel>
    );
  }
  return <LocationFacts where={location.data} />;
}

function LocationFacts({ where }: { where: TokenLocation }) {
  const x = where.explorer;
  return (
    <Panel
      lead={
        <p className="where-lead">
          This collectible is recorded on a public blockchain, in its owner's wallet. It stays there whatever
          happens to Diginoor, and anyone can check who owns it.
        </p>
      }
    >
      <dl className="where-facts">
        <div>
          <dt>Owner's wallet</dt>
          <dd>
            <Copyable value={where.owner} what="Owner's address" />
            {where.ownerHandle ? (
              <span className="where-handle">
                Diginoor collector <Link to={`/u/${where.ownerHandle}`}>@{where.ownerHandle}</Link>
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      {/* The technical facts, for those who want them (issue 35): folded, with the same facts inside. */}
      <details className="where-details">
        <summary>Details</summary>
        <dl className="where-facts">
          <div>
            <dt>Chain</dt>
            <dd>
              <span>
                {where.chainName} <span className="muted">(chain id {where.chainId})</span>
              </span>
            </dd>
          </div>
          <div>
            <dt>Token standard</dt>
            <dd>{where.standard}</dd>
          </div>
          <div>
            <dt>Contract address</dt>
            <dd>
              <Copyable value={where.contract} what="Contract address" />
            </dd>
          </div>
          <div>
            <dt>Token id</dt>
            <dd>
              <Copyable value={where.tokenId} what="Token id" />
            </dd>
          </div>
          <div>
            <dt>Block explorer</dt>
            <dd>
              {x ? (
                <a href={x.token} target="_blank" rel="noopener noreferrer" data-testid="explorer-link">
                  View this token on the explorer
                </a>
              ) : (
                <span>This chain has no public block explorer (a local development chain).</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Metadata (tokenURI)</dt>
            <dd>
              {where.tokenUri ? (
                <>
                  <Copyable value={where.tokenUri} what="Metadata URL" />
                  <span className="where-note">
                    {where.onIpfs
                      ? "On IPFS: any IPFS gateway serves it, with or without Diginoor."
                      : "Served by Diginoor today; an IPFS snapshot can replace it."}
                  </span>
                </>
              ) : (
                <span>The chain did not answer just now; try again later.</span>
              )}
            </dd>
          </div>
        </dl>
        <h3 className="where-subtitle">See it in any wallet or marketplace</h3>
        <ul className="where-steps">
          <li>
            <strong>MetaMask and most wallets:</strong> NFTs → Import NFT, choose {where.chainName}, then
            paste the contract address and the token id above.
          </li>
          <li>
            <strong>Marketplaces:</strong> any {where.standard} marketplace that supports {where.chainName}{" "}
            lists it under the owner's wallet address, or by contract address and token id.
          </li>
          <li>
            <strong>Your own copy:</strong> the metadata URL gives the name, picture and traits as JSON.
          </li>
        </ul>
      </details>
    </Panel>
  );
}

/** The NFT page's panel: whether any edition is on the chain yet, and where each minted one lives. */
export function WhereEditionsLive({ mintedTokenIds }: { mintedTokenIds: string[] | undefined }) {
  if (mintedTokenIds === undefined) {
    return (
      <Panel>
        <Skeleton height={64} />
      </Panel>
    );
  }
  if (mintedTokenIds.length === 0) {
    return (
      <Panel>
        <p className="where-lead" data-testid="not-on-chain">
          Not on chain yet: no edition of this NFT has been bought. When one is, it is recorded in its
          collector's wallet, and its token page shows where it lives.
        </p>
      </Panel>
    );
  }
  return (
    <Panel
      lead={
        <p className="where-lead">
          Each edition bought is recorded in its collector's wallet. Open one to see where it lives and how to
          view it in any wallet:
        </p>
      }
    >
      <ul className="where-tokens plain-list">
        {mintedTokenIds.map((id) => (
          <li key={id}>
            <Link to={`/nfttransfer/${id}`}>Token #{id}</Link>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
