import type { ActivityTag, PublicProfile, ShowcaseToken, socialEndpoints as api } from "@diginoor/api/social";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { callApi } from "../../lib/api.ts";
import { useLiveFallback } from "../../lib/live-streams.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { shareLink } from "../../lib/share.ts";
import { Price } from "../../ui/Price.tsx";
import { useChainInfo } from "../../lib/wallet/chain.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { Countdown } from "../../ui/Countdown.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TokenCard } from "../../ui/TokenCard.tsx";
import { useToast } from "../../ui/Toast.tsx";

const enc = encodeURIComponent;

export const profileKey = (handle: string) => ["profile", handle.toLowerCase()] as const;

export function usePublicProfile(handle: string | undefined) {
  return useQuery({
    queryKey: profileKey(handle ?? ""),
    queryFn: ({ signal }) =>
      callApi<typeof api.getProfile>("GET /api/v1/users/{handle}", {
        params: { handle: handle ?? "" },
        signal,
      }),
    enabled: !!handle,
  });
}

/** Follow / Unfollow (visitors are sent to sign in); hidden on one's own profile. */
export function FollowButton({ profile }: { profile: PublicProfile }) {
  const client = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useCurrentUser();
  const follow = useMutation({
    mutationFn: (on: boolean) =>
      on
        ? callApi<typeof api.follow>("PUT /api/v1/users/{handle}/follow", {
            params: { handle: profile.handle },
          })
        : callApi<typeof api.unfollow>("DELETE /api/v1/users/{handle}/follow", {
            params: { handle: profile.handle },
          }),
    onSuccess: (p) => client.setQueryData(profileKey(p.handle), p),
    onError: (err) => toast.error(err instanceof Error ? err.message : "Something Went Wrong"),
  });
  if (profile.isMe) return null;
  return (
    <Button
      variant={profile.followedByMe ? "secondary" : "primary"}
      disabled={follow.isPending}
      aria-pressed={profile.followedByMe}
      onClick={() => {
        if (!user) navigate(`/login?next=${enc(location.pathname)}`);
        else follow.mutate(!profile.followedByMe);
      }}
    >
      {profile.followedByMe ? "Following" : "Follow"}
    </Button>
  );
}

/** Share (system sheet, else copy the link) and Tweet it. */
export function ShareButtons({ profile }: { profile: PublicProfile }) {
  const toast = useToast();
  const path = `/u/${profile.handle}`;
  const url = new URL(path, window.location.origin).toString();
  const tweet = `https://twitter.com/intent/tweet?${new URLSearchParams({
    text: `${profile.name}'s collection of Indian cinema NFTs on Diginoor`,
    url,
  })}`;
  return (
    <>
      <Button
        variant="secondary"
        onClick={async () => {
          const r = await shareLink({ title: `${profile.name} on Diginoor`, url: path });
          if (r === "copied") toast.success("Link copied");
          else if (r === "failed") toast.error("Sharing is not available in this browser");
        }}
      >
        Share
      </Button>
      <a className="btn btn-secondary btn-md" href={tweet} target="_blank" rel="noopener noreferrer">
        Tweet it
      </a>
    </>
  );
}

export function FollowCounts({ profile }: { profile: PublicProfile }) {
  return (
    <p className="profile-head__meta profile-counts">
      <span>
        <strong className="tabular">{profile.followers}</strong>{" "}
        {profile.followers === 1 ? "follower" : "followers"}
      </span>{" "}
      ·{" "}
      <span>
        <strong className="tabular">{profile.following}</strong> following
      </span>
    </p>
  );
}

const showcaseKey = (handle: string, own: boolean) => ["showcase", own ? "me" : handle] as const;

/** The Showcase tab: the owner arranges (pin, hide, move); everyone else sees what is not hidden. */
export function ShowcaseTab({
  handle,
  own,
  onSaleOnly = false,
}: {
  handle: string;
  own: boolean;
  onSaleOnly?: boolean;
}) {
  const symbol = useChainInfo().data?.nativeSymbol ?? "ETH";
  const client = useQueryClient();
  const toast = useToast();
  const showcase = useQuery({
    queryKey: showcaseKey(handle, own),
    queryFn: ({ signal }) =>
      own
        ? callApi<typeof api.myShowcase>("GET /api/v1/me/showcase", { signal })
        : callApi<typeof api.showcase>("GET /api/v1/users/{handle}/showcase", { params: { handle }, signal }),
  });
  const arrange = useMutation({
    mutationFn: (items: ShowcaseToken[]) =>
      callApi<typeof api.arrangeShowcase>("PUT /api/v1/me/showcase", {
        body: {
          items: items.map((t) => ({ tokenId: t.tokenId, pinned: t.pinned, hidden: t.hiddenFromShowcase })),
        },
      }),
    onSuccess: (s) => client.setQueryData(showcaseKey(handle, own), s),
    onError: (err) => toast.error(err instanceof Error ? err.message : "Something Went Wrong"),
  });
  const items = (showcase.data?.items ?? []).filter(
    (t) => !onSaleOnly || t.listing || (t.auction && !t.auction.settled),
  );
  const change = (i: number, patch: Partial<ShowcaseToken>, move = 0) => {
    const next = items.map((t, n) => (n === i ? { ...t, ...patch } : t));
    if (move) {
      const j = i + move;
      if (j < 0 || j >= next.length) return;
      [next[i], next[j]] = [next[j] as ShowcaseToken, next[i] as ShowcaseToken];
    }
    arrange.mutate(next, {
      onSuccess: () => {
        if (patch.hiddenFromShowcase === true) toast.success(HIDDEN_TOAST);
        else if (patch.hiddenFromShowcase === false) toast.success("Shown on your profile again");
      },
    });
  };
  return (
    <QueryState
      query={showcase}
      loading={<Skeleton height={200} />}
      errorTitle="We couldn't load the showcase"
      isEmpty={() => items.length === 0}
      empty={
        <EmptyState
          title={
            onSaleOnly ? "Nothing on sale" : own ? "Your showcase is empty" : "Nothing in this showcase yet"
          }
          action={
            <ButtonLink to="/marketplace" variant="secondary">
              Browse the marketplace
            </ButtonLink>
          }
        >
          {onSaleOnly
            ? "NFTs they list or put up for auction will appear here."
            : own
              ? "NFTs you buy appear here, so fans can see your collection."
              : "NFTs they collect will appear here."}
        </EmptyState>
      }
    >
      {() => (
        <>
          {own ? (
            <p className="showcase-note" id={HIDE_NOTE_ID}>
              {HIDE_NOTE}
            </p>
          ) : null}
          <ul className="token-cards">
            {items.map((t, i) => (
              <li key={t.tokenId} className={t.hiddenFromShowcase ? "showcase-hidden" : undefined}>
                <TokenCard
                  token={t}
                  symbol={symbol}
                  to={`/${own ? "nftshowcase" : "nfttransfer"}/${t.tokenId}`}
                />
                {t.pinned ? <span className="showcase-badge">Pinned</span> : null}
                {own ? (
                  <fieldset className="showcase-tools">
                    <legend className="visually-hidden">Arrange token {t.tokenId}</legend>
                    <Button size="sm" variant="ghost" onClick={() => change(i, { pinned: !t.pinned })}>
                      {t.pinned ? "Unpin" : "Pin"}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-describedby={HIDE_NOTE_ID}
                      onClick={() => change(i, { hiddenFromShowcase: !t.hiddenFromShowcase })}
                    >
                      {t.hiddenFromShowcase ? "Show" : "Hide"}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label="Move earlier"
                      disabled={i === 0}
                      onClick={() => change(i, {}, -1)}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label="Move later"
                      disabled={i === items.length - 1}
                      onClick={() => change(i, {}, 1)}
                    >
                      ↓
                    </Button>
                  </fieldset>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </QueryState>
  );
}

const HIDE_NOTE_ID = "showcase-hide-note";
/**
 * What Hide does and does not do (issue 23): the showcase is ours, the chain is not. The token API
 * (GET /api/v1/accounts/:address/tokens) and any block explorer still list a hidden token.
 */
export const HIDE_NOTE =
  "Hide only takes an NFT off your public profile. The blockchain is public: anyone who knows your wallet address can still see every token it holds, in a block explorer, a wallet app or through our API.";
export const HIDDEN_TOAST = "Hidden from your profile. It stays visible on the public blockchain.";

const STATE_LABEL = { leading: "Leading", outbid: "Outbid", won: "Won", lost: "Lost", refunded: "Refunded" };

/** The Bids tab (own profile): every bid with its state, the live countdown and a link to bid again. */
export function BidsTab() {
  const symbol = useChainInfo().data?.nativeSymbol ?? "ETH";
  const fallback = useLiveFallback("market");
  const bids = useQuery({
    queryKey: ["my-bids"],
    queryFn: ({ signal }) => callApi<typeof api.myBids>("GET /api/v1/me/bids", { signal }),
    refetchInterval: fallback,
  });
  return (
    <QueryState
      query={bids}
      loading={<Skeleton height={160} />}
      errorTitle="We couldn't load your bids"
      isEmpty={(d) => d.items.length === 0}
      empty={
        <EmptyState
          title="No bids yet"
          action={
            <ButtonLink to="/marketplace" variant="secondary">
              Find an auction
            </ButtonLink>
          }
        >
          Bids you place in auctions will be listed here with their status.
        </EmptyState>
      }
    >
      {({ items }) => (
        <ul className="profile-list" data-testid="bids-list">
          {items.map((b) => (
            <li key={b.txHash} className="profile-row">
              {b.nft ? (
                <img src={b.nft.imageUrl} alt="" width={48} height={60} className="profile-row__img" />
              ) : null}
              <div className="profile-row__text">
                <Link to={b.link}>{b.nft?.title ?? `Token #${b.tokenId}`}</Link>
                <Price wei={b.amountWei} symbol={symbol} />
                <span>{new Date(b.at).toLocaleDateString()}</span>
                {b.endsAt ? <Countdown endsAt={b.endsAt} compact /> : null}
              </div>
              <span className={`bid-state bid-state--${b.state}`} data-testid="bid-state">
                {STATE_LABEL[b.state]}
              </span>
              {b.state === "outbid" || b.state === "leading" ? (
                <ButtonLink to={b.link} size="sm" variant={b.state === "outbid" ? "primary" : "secondary"}>
                  {b.state === "outbid" ? "Bid again" : "View auction"}
                </ButtonLink>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

const TAGS: ActivityTag[] = ["likes", "bids", "auctions", "sold", "followers", "following"];

/** The Activity tab: one feed, filtered by the spec's tags. */
export function ActivityTab({ handle }: { handle: string }) {
  const [tag, setTag] = useState<ActivityTag | undefined>();
  const feed = useQuery({
    queryKey: ["activity", handle, tag ?? "all"],
    queryFn: ({ signal }) =>
      callApi<typeof api.activity>("GET /api/v1/users/{handle}/activity", {
        params: { handle },
        query: tag ? { tag } : {},
        signal,
      }),
  });
  return (
    <div>
      <fieldset className="activity-tags">
        <legend className="visually-hidden">Filter activity</legend>
        {TAGS.map((t) => (
          <button
            key={t}
            type="button"
            className={`activity-tag${tag === t ? " is-active" : ""}`}
            aria-pressed={tag === t}
            onClick={() => setTag(tag === t ? undefined : t)}
          >
            {t}
          </button>
        ))}
      </fieldset>
      <QueryState
        query={feed}
        loading={<Skeleton height={160} />}
        errorTitle="We couldn't load the activity"
        isEmpty={(d) => d.items.length === 0}
        empty={
          <EmptyState title="No activity yet">
            Likes, bids, auctions, sales and follows will be listed here.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="profile-list">
            {data.items.map((e) => (
              <li key={`${e.kind}-${e.at}-${e.link}`} className="profile-row">
                {e.imageUrl ? (
                  <img src={e.imageUrl} alt="" width={48} height={48} className="profile-row__img" />
                ) : null}
                <div className="profile-row__text">
                  <Link to={e.link}>{e.text}</Link>
                  <span>{new Date(e.at).toLocaleString()}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}
