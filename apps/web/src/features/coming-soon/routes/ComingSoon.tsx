import type { ReactNode } from "react";
import { Link } from "react-router";
import { useDocumentTitle } from "../../../lib/hooks.ts";
import "./coming-soon.css";

export interface ComingSoonLink {
  to: string;
  title: string;
  text: string;
}

/**
 * An honest page for a part of the product that is not built yet: what it will be, what works
 * today, and links to pages that exist (never a dead end, never a promise of mail nothing sends).
 */
export function ComingSoon({
  eyebrow,
  title,
  lead,
  art,
  planned,
  meanwhile,
}: {
  eyebrow: string;
  title: string;
  lead: ReactNode;
  art: ReactNode;
  planned: { title: string; items: string[] };
  meanwhile: ComingSoonLink[];
}) {
  useDocumentTitle(title);
  return (
    <>
      <section className="container coming-soon-hero">
        <div className="coming-soon-copy">
          <p className="eyebrow">
            <span className="coming-soon-pill">Coming soon</span> {eyebrow}
          </p>
          <h1>{title}</h1>
          <p className="coming-soon-lead">{lead}</p>
        </div>
        <div className="coming-soon-art" aria-hidden="true">
          {art}
        </div>
      </section>
      <section className="container section coming-soon-body">
        <section className="card" aria-labelledby="planned-title">
          <h2 id="planned-title">{planned.title}</h2>
          <ul className="coming-soon-list">
            {planned.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="meanwhile-title">
          <h2 id="meanwhile-title">What you can do today</h2>
          <ul className="coming-soon-links plain-list">
            {meanwhile.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="coming-soon-link">
                  <span className="coming-soon-link-title">{link.title} →</span>
                  <span className="muted">{link.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </section>
    </>
  );
}
