// The studio console (decision 132). Administrators see every section; a studio account sees its own
// production house's films and NFTs (and reads studios and celebrities); others get a 403 page.
import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { Forbidden } from "../../ui/Forbidden.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useConsoleMe } from "./api.ts";
import { ChainSection } from "./chain.tsx";
import { EarningsSection } from "./earnings.tsx";
import {
  AuditSection,
  CelebritiesSection,
  FilmsSection,
  InboxSection,
  LotteriesSection,
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
  { path: "lotteries", label: "Lotteries", studio: true, render: () => <LotteriesSection /> },
  { path: "earnings", label: "Earnings", studio: true, render: () => <EarningsSection /> },
  { path: "posts", label: "Posts", studio: false, render: () => <PostsSection /> },
  { path: "orders", label: "Orders", studio: false, render: () => <OrdersSection /> },
  { path: "users", label: "Users", studio: false, render: () => <UsersSection /> },
  { path: "tokens", label: "Hidden tokens", studio: false, render: () => <TokensSection /> },
  { path: "chain", label: "Chain", studio: false, render: () => <ChainSection /> },
  { path: "inbox", label: "Inbox", studio: false, render: () => <InboxSection /> },
  { path: "newsletter", label: "Newsletter", studio: false, render: () => <NewsletterSection /> },
  { path: "audit", label: "Audit log", studio: false, render: () => <AuditSection /> },
];

/** The document title of a console page. */
export function consoleTitle(sectionPath: string): string {
  const section = SECTIONS.find((s) => s.path === sectionPath);
  return section ? `${section.label} · Console` : "Console";
}

/** The console of a staff account: its sections (all of them for administrators). */
export function Console({ sectionPath }: { sectionPath: string }) {
  const me = useConsoleMe(true);
  const section = SECTIONS.find((s) => s.path === sectionPath);
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
  if (!isAdmin && !section.studio) {
    return (
      <Forbidden backTo="/admin/films" backLabel="Back to your films">
        Studio accounts manage their own production house's films and NFTs.
      </Forbidden>
    );
  }

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
