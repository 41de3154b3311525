import type { FilmDetail } from "@diginoor/api/catalogue";
import { useState } from "react";
import { shareLink } from "../../../lib/share.ts";
import { Button } from "../../../ui/Button.tsx";
import { ShareIcon, SproutIcon } from "../../../ui/icons.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { useToast } from "../../../ui/Toast.tsx";

/** Banner, thumbnail, title, short description with "More", share, cast and the film's note. */
export function FilmHeader({ film }: { film: FilmDetail }) {
  const [expanded, setExpanded] = useState(false);
  const toast = useToast();

  async function onShare() {
    const result = await shareLink({ title: `${film.name} on Diginoor`, url: window.location.pathname });
    if (result === "copied") toast.success("Link copied to clipboard");
    else if (result === "failed")
      toast.error("Couldn't share the link. Copy it from the address bar instead.");
  }

  return (
    <header className="film-header">
      <div className="film-banner">
        <img src={film.bannerUrl} alt="" decoding="async" />
      </div>
      <div className="container film-header-inner">
        <img
          className="film-thumb"
          src={film.posterUrl}
          alt={`${film.name} poster`}
          width={240}
          height={360}
        />
        <div className="film-header-copy">
          <p className="eyebrow">
            {film.releaseYear ? `${film.releaseYear} · ` : ""}
            {film.productionHouse ? film.productionHouse.name : "Collection"}
          </p>
          <h1>{film.name}</h1>
          <p className="film-tagline">{film.tagline}</p>
          <p className={`film-description${expanded ? " is-expanded" : ""}`} id="film-description">
            {film.description}
          </p>
          <div className="film-actions">
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={expanded}
              aria-controls="film-description"
              onClick={() => setExpanded((v) => !v)}
            >
              {expanded ? "Less" : "More"}
            </Button>
            <Button variant="secondary" size="sm" onClick={onShare}>
              <ShareIcon width={16} height={16} /> Share
            </Button>
          </div>
          {film.celebrities.length > 0 ? (
            <ul className="chip-row plain-list film-cast" aria-label="Starring">
              {film.celebrities.map((c) => (
                <li key={c.slug} className="chip">
                  {c.name}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
      {film.note ? (
        <div className="container">
          <p className="film-note" role="note">
            <SproutIcon className="film-note-icon" />
            {film.note}
          </p>
        </div>
      ) : null}
    </header>
  );
}

export function FilmHeaderSkeleton() {
  return (
    <div className="film-header" data-loading="">
      <Skeleton className="film-banner" radius="0" height="auto" />
      <div className="container film-header-inner">
        <Skeleton className="film-thumb" width={160} height={240} />
        <div className="film-header-copy" style={{ flex: 1 }}>
          <Skeleton width="30%" height={14} />
          <Skeleton width="60%" height={44} style={{ marginTop: 12 }} />
          <Skeleton width="90%" height={16} style={{ marginTop: 16 }} />
          <Skeleton width="80%" height={16} style={{ marginTop: 8 }} />
        </div>
      </div>
    </div>
  );
}
