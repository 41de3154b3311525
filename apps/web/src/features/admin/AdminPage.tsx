// /admin and /admin/:section: the studio console (decision 132). Administrators see every section;
// a studio account sees its own production house's films and NFTs (and reads studios and
// celebrities). Visitors are sent to sign in; other accounts get a 403 page.
import type { ReactNode } from "react";
import { NavLink, useParams } from "react-router";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { useRequiredAccount } from "../../lib/use-required-account.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorState } from "../../ui/ErrorState.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { SignedOut } from "../../ui/SignedOut.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useConsoleMe } from "./api.ts";
import {
  AuditSection,
  CelebritiesSection,
  FilmsSection,
  InboxSection,
  NewsletterSection,
  NftsSection,
  OrdersSection,
  PostsSection,
  StudiosSection,
  TokensSection,
  UsersSection,
} from "./sections.tsx";
import "./admin.css";

interface Section {
  path: string;
  label: string;
  studio: boolean;
  render: (isAdmin: boolean) => ReactNode;
}

const SECTIONS: Section[] = [
  { path: "films", label: "Films", studio: true, render: (a) => <FilmsSection isAdmin={a} /> },
  { path: "nfts", label: "NFTs", studio: true, render: () => <NftsSection /> },
  {
    path: "celebrities",
    label: "Celebrities",
    studio: true,
    render: (a) => <CelebritiesSection isAdmin={a} />,
  },
  { path: "studios", label: "Studios", studio: true, render: (a) => <StudiosSection isAdmin={a} /> },
  { path: "posts", label: "Posts", studio: false, render: () => <PostsSection /> },
  { path: "orders", label: "Orders", studio: false, render: () => <OrdersSection /> },
  { path: "users", label: "Users", studio: false, render: () => <UsersSection /> },
  { path: "tokens", label: "Hidden tokens", studio: false, render: () => <TokensSection /> },
  { path: "inbox", label: "Inbox", studio: false, render: () => <InboxSection /> },
  { path: "newsletter", label: "Newsletter", studio: false, render: () => <NewsletterSection /> },
  { path: "audit", label: "Audit log", studio: false, render: () => <AuditSection /> },
];

/** The 403 page: signed in, but not staff (or a studio account outside its sections). */
function Forbidden({ studio }: { studio?: boolean }) {
  return (
    <div className="container section admin-forbidden">
      <p className="eyebrow">Error 403</p>
      <EmptyState
        title="You don't have access to this page"
        action={
          <ButtonLink to={studio ? "/admin/films" : "/"} variant="primary">
            {studio ? "Back to your films" : "Back to the home page"}
          </ButtonLink>
        }
      >
        {studio
          ? "Studio accounts manage their own production house's films and NFTs."
          : "The studio console is for Diginoor's team and its partner studios."}
      </EmptyState>
    </div>
  );
}

export function Component() {
  const account = useRequiredAccount();
  const params = useParams();
  const staff = account.user?.role === "admin" || account.user?.role === "studio";
  const me = useConsoleMe(staff);
  const sectionPath = params.section ?? "films";
  const section = SECTIONS.find((s) => s.path === sectionPath);
  useDocumentTitle(section ? `${section.label} · Console` : "Console");

  if (account.signedOutHere) return <SignedOut what="the console" />;
  if (account.isLoading || (!account.user && !account.error)) {
    return (
      <div className="container section" aria-busy="true">
        <Skeleton height="3rem" />
        <Skeleton height="20rem" />
      </div>
    );
  }
  if (!account.user) {
    return (
      <div className="container section">
        <ErrorState
          title="We couldn't load your account"
          error={account.error}
          onRetry={() => account.refetch()}
        />
      </div>
    );
  }
  if (!staff) return <Forbidden />;
  if (me.isError) return <Forbidden />;
  if (!me.data) {
    return (
      <div className="container section" aria-busy="true">
        <Skeleton height="20rem" />
      </div>
    );
  }
  const isAdmin = me.data.role === "admin";
  const visible = SECTIONS.filter((s) => isAdmin || s.studio);
  if (!section)
    return <NotFoundContent title="No such console page" message="Pick a section from the menu." />;
  if (!isAdmin && !section.studio) return <Forbidden studio />;

  return (
    <div className="admin-page">
      <div className="admin-shell">
        <aside className="admin-nav" aria-label="Console">
          <p className="admin-nav__title">
            Studio console
            <span className="admin-nav__who">
              {isAdmin ? "Administrator" : `Studio: ${me.data.productionHouse?.name ?? ""}`}
            </span>
          </p>
          <nav aria-label="Console sections">
            <ul>
              {visible.map((s) => (
                <li key={s.path}>
                  <NavLink to={`/admin/${s.path}`} className={sectionPath === s.path ? "active" : undefined}>
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <div className="admin-main">{section.render(isAdmin)}</div>
      </div>
    </div>
  );
}
