import type { ReactNode } from "react";
import { useDocumentTitle } from "../../../lib/hooks.ts";
import "./legal.css";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal page: title, effective date, table of contents and numbered sections. */
export function LegalDocument({
  title,
  intro,
  updated,
  sections,
}: {
  title: string;
  intro: ReactNode;
  updated: string;
  sections: LegalSection[];
}) {
  useDocumentTitle(title);
  return (
    <div className="container legal">
      <header className="page-head">
        <p className="eyebrow">Legal</p>
        <h1>{title}</h1>
        <p>Last updated {updated}</p>
      </header>
      <div className="legal-layout">
        <nav className="legal-toc" aria-label="Contents">
          <h2>Contents</h2>
          <ol>
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="prose legal-body">
          <div className="legal-intro">{intro}</div>
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`}>
              <h2 id={`${s.id}-title`}>
                {i + 1}. {s.title}
              </h2>
              {s.body}
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
