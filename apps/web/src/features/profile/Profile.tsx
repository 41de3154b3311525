import { Link } from "react-router";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { ButtonLink } from "../../ui/Button.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useLinkedWallets } from "../../lib/wallet/chain.ts";
import { shortAddress } from "../../lib/format.ts";
import { MyOrders } from "./MyOrders.tsx";
import { MyTickets } from "./MyTickets.tsx";
import { MyTokens } from "./MyTokens.tsx";
import { ProfileImage } from "./ProfileImage.tsx";
import type { User } from "../../lib/account.tsx";
import { useParams } from "react-router";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import {
  ActivityTab,
  BidsTab,
  FollowButton,
  FollowCounts,
  ShareButtons,
  ShowcaseTab,
  usePublicProfile,
} from "./social.tsx";
import "./profile.css";

const ALL_TABS = [
  {
    id: "bids",
    label: "Bids",
    title: "No bids yet",
    body: "Bids you place in auctions will be listed here with their status.",
  },
  {
    id: "showcase",
    label: "Showcase",
    title: "Your showcase is empty",
    body: "NFTs you buy appear here, so fans can see your collection.",
  },
  {
    id: "on-sale",
    label: "On Sale",
    title: "Nothing on sale",
    body: "NFTs you list for a fixed price or put up for auction will appear here.",
  },
  {
    id: "orders",
    label: "My orders",
    title: "No orders yet",
    body: "NFTs you buy by wallet, card or in rupees are listed here with their progress.",
  },
  {
    id: "tickets",
    label: "Tickets",
    title: "No tickets yet",
    body: "Your lottery tickets, their numbers and each draw's result.",
  },
  {
    id: "activity",
    label: "Activity",
    title: "No activity yet",
    body: "Your likes, bids, auctions and sales will be listed here as they happen.",
  },
] as const;
type TabId = (typeof ALL_TABS)[number]["id"];
const PUBLIC_TABS = ALL_TABS.filter((t) => t.id !== "bids" && t.id !== "orders" && t.id !== "tickets");

/** The profile pages' frame, around their content or a loading / error / signed-out state. */
export const profileFrame = (state: ReactNode) => (
  <div className="profile-page">
    <div className="profile-shell">{state}</div>
  </div>
);

/** /profile: the signed-in user's own profile (every tab, Edit Profile, the receiving wallet). */
export function MyProfile({ user }: { user: User }) {
  const profile = usePublicProfile(user.handle);

  useEffect(() => {
    document.title = `${user.name} · Diginoor`;
  }, [user]);

  const joined = new Date(user.createdAt);

  return (
    <div className="profile-page">
      <div className="profile-shell">
        <ProfileImage kind="cover" url={user.coverUrl} name={user.name} />
        <div className="profile-head">
          <ProfileImage kind="avatar" url={user.avatarUrl} name={user.name} />
          <div className="profile-head__text">
            <h1 className="profile-head__name">{user.name}</h1>
            <p className="profile-head__wallet">
              <WalletIcon />
              <ReceivingWallet />
            </p>
            {Number.isNaN(joined.getTime()) ? null : (
              <p className="profile-head__meta">
                Member since {joined.toLocaleDateString(undefined, { month: "long", year: "numeric" })}
              </p>
            )}
          </div>
          <div className="profile-head__actions">
            <ButtonLink to="/profile/edit_profile" variant="primary">
              Edit Profile
            </ButtonLink>
            {profile.data ? <ShareButtons profile={profile.data} /> : null}
          </div>
        </div>
        {profile.data ? <FollowCounts profile={profile.data} /> : null}
        <ProfileTabs handle={user.handle} own />
      </div>
    </div>
  );
}

/** Tabs with the WAI-ARIA pattern: arrow keys, Home and End move between tabs. */
function ProfileTabs({ handle, own }: { handle: string; own: boolean }) {
  const TABS = own ? ALL_TABS : PUBLIC_TABS;
  // A link to /profile#tickets (the ticket confirmation's "My tickets") opens that tab.
  const [active, setActive] = useState<TabId>(() => {
    const hash = typeof window === "undefined" ? "" : window.location.hash.slice(1);
    const linked = TABS.find((t) => t.id === hash);
    return linked ? linked.id : own ? "bids" : "showcase";
  });
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());
  const base = useId();

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((t) => t.id === active);
    let next = index;
    if (event.key === "ArrowRight") next = (index + 1) % TABS.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = TABS.length - 1;
    else return;
    event.preventDefault();
    const tab = TABS[next];
    if (!tab) return;
    setActive(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  }

  return (
    <section className="profile-tabs" aria-label={own ? "Your collection" : "Collection"}>
      <div
        className="profile-tabs__list"
        role="tablist"
        aria-label="Profile sections"
        onKeyDown={onKeyDown}
        tabIndex={-1}
      >
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) tabRefs.current.set(tab.id, el);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-controls={`${base}-panel-${tab.id}`}
            aria-selected={active === tab.id}
            tabIndex={active === tab.id ? 0 : -1}
            className="profile-tabs__tab"
            onClick={() => setActive(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={active !== tab.id}
          className="profile-tabs__panel"
        >
          {active !== tab.id ? null : tab.id === "showcase" ? (
            <ShowcaseTab handle={handle} own={own} />
          ) : tab.id === "on-sale" ? (
            own ? (
              <MyTokens onSale />
            ) : (
              <ShowcaseTab handle={handle} own={false} onSaleOnly />
            )
          ) : tab.id === "bids" ? (
            <BidsTab />
          ) : tab.id === "orders" ? (
            <MyOrders />
          ) : tab.id === "tickets" ? (
            <MyTickets />
          ) : (
            <ActivityTab handle={handle} />
          )}
        </div>
      ))}
    </section>
  );
}

export function ProfileSkeleton() {
  return (
    <div className="profile-page" aria-busy="true">
      <div className="profile-shell">
        <Skeleton className="profile-skeleton__cover" height="auto" radius="var(--radius-lg)" />
        <div className="profile-head">
          <Skeleton
            className="profile-skeleton__avatar"
            width="var(--avatar-size)"
            height="var(--avatar-size)"
            radius="50%"
          />
          <div className="profile-head__text">
            <Skeleton height="2rem" width="min(280px, 70%)" />
            <Skeleton height="1rem" width="min(180px, 50%)" />
          </div>
        </div>
      </div>
    </div>
  );
}

function WalletIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M3 7h15a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V7zm0 0 12-3v3M16 13.5h2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The wallet that receives the user's purchases, or a link to connect one. */
function ReceivingWallet() {
  const wallets = useLinkedWallets(true);
  const w = wallets.data?.items.find((x) => x.receivesPurchases) ?? wallets.data?.items[0];
  if (!w) return <Link to="/wallet">No wallet connected</Link>;
  return <code title={w.address}>{shortAddress(w.address)}</code>;
}

/** /u/:handle: a user's public profile (cover, avatar, name, wallet, follow, share; Showcase, On Sale, Activity). */
export function PublicProfile() {
  const { handle = "" } = useParams();
  const profile = usePublicProfile(handle);
  const p = profile.data;
  useEffect(() => {
    document.title = p ? `${p.name} · Diginoor` : "Profile · Diginoor";
  }, [p]);
  if ((profile.error as { status?: number } | null)?.status === 404 && !p)
    return profileFrame(<NotFoundContent />);
  return (
    <QueryState
      query={profile}
      loading={<ProfileSkeleton />}
      errorTitle="We couldn't load this profile"
      errorFrame={profileFrame}
    >
      {(p) => (
        <div className="profile-page">
          <div className="profile-shell">
            <ProfileImage kind="cover" url={p.coverUrl} name={p.name} editable={false} />
            <div className="profile-head">
              <ProfileImage kind="avatar" url={p.avatarUrl} name={p.name} editable={false} />
              <div className="profile-head__text">
                <h1 className="profile-head__name">{p.name}</h1>
                <p className="profile-head__wallet">
                  <WalletIcon />
                  {p.wallet ? <code title={p.wallet}>{shortAddress(p.wallet)}</code> : "No wallet linked"}
                </p>
                <FollowCounts profile={p} />
              </div>
              <div className="profile-head__actions">
                {p.isMe ? (
                  <ButtonLink to="/profile/edit_profile" variant="primary">
                    Edit Profile
                  </ButtonLink>
                ) : (
                  <FollowButton profile={p} />
                )}
                <ShareButtons profile={p} />
              </div>
            </div>
            <ProfileTabs handle={p.handle} own={false} />
          </div>
        </div>
      )}
    </QueryState>
  );
}
