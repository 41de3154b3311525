import type { Tier } from "@diginoor/api/catalogue";
import { useState } from "react";
import { useAbout } from "../../lib/catalogue/about.ts";
import { tierLabel, tierOrder } from "../../lib/format.ts";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TierPicker } from "../../ui/TierPicker.tsx";
import { TierCardArt } from "../../features/about/components/TierCardArt.tsx";
import "./about.css";

const tierCopy: Record<Tier, string> = {
  common:
    "The way in. Posters, stills and dialogue moments in editions of hundreds, priced so every fan can start a collection.",
  rare: "Iconic scenes and songs in editions of tens. Numbered, traceable, and increasingly hard to find once they sell out.",
  ultimate:
    "Signature moments in editions of a handful, with extras such as signed lobby cards, storyboards and behind-the-scenes sets.",
  legendary:
    "One of one. A single owner, exclusive rights and rewards from the studios and stars, usually sold at auction.",
};

export function AboutPage() {
  useDocumentTitle("About");
  const [tier, setTier] = useState<Tier>("legendary");
  const about = useAbout();

  return (
    <>
      <section className="container page-head about-hero">
        <p className="eyebrow">About Diginoor</p>
        <h1>What're we about?</h1>
        <p>
          Diginoor is where fans of Indian cinema own a piece of the films they love. We work directly with
          production houses and stars to release officially licensed digital collectibles, each one recorded
          on a public blockchain so its authenticity and ownership can always be verified.
        </p>
        <p>
          You need no crypto and no app: pay in rupees by card or UPI, confirm with your fingerprint, face or
          screen lock, and your collectible is in the wallet we make for you within seconds. The network fees
          are on us. Already have a crypto wallet? It is welcome too.
        </p>
      </section>

      <section className="container section about-split">
        <div>
          <p className="eyebrow">Cinephiles assemble</p>
          <h2>Made for the fans who know every line</h2>
          <p className="muted">
            You whistled at the first-day-first-show, you know the dialogues by heart, you have argued about
            the ending in every tea shop. Diginoor turns that devotion into something you can own: the
            moments, posters, songs and props of the films that shaped you, released with the blessing of the
            people who made them.
          </p>
        </div>
        <div>
          <p className="eyebrow">Grow big or go home</p>
          <h2>Collect, trade and grow</h2>
          <p className="muted">
            Start with a Common still, chase the Rare scenes, bid on a Legendary one-of-one. Resell on the
            marketplace whenever you like; every sale and resale sends 10% royalties back to the production
            house, so the industry you love shares in the value fans create.
          </p>
        </div>
      </section>

      <section className="section tiers-switcher" aria-labelledby="tiers-title">
        <div className="container tiers-switcher-inner">
          <div>
            <p className="eyebrow">Elusive &amp; exclusive</p>
            <h2 id="tiers-title">Four tiers of rarity</h2>
            <p className="muted">
              Every collectible belongs to one of four tiers, shown with the same colour everywhere on
              Diginoor and always written in words.
            </p>
            <TierPicker
              className="tier-switch"
              legend="Choose a tier"
              value={tier}
              onChange={(t) => t && setTier(t)}
            />
            <p className="tier-switch-copy" aria-live="polite">
              <strong>{tierLabel[tier]}.</strong> {tierCopy[tier]}
            </p>
          </div>
          <div className="tier-art-frame">
            <TierCardArt tier={tier} />
          </div>
        </div>
      </section>

      <section className="container section about-split">
        <div>
          <p className="eyebrow">Your own timeless showcase</p>
          <h2>A gallery with your name on it</h2>
          <p className="muted">
            Everything you collect appears in your profile showcase: a gallery you can share with friends, fan
            clubs and the world. Your collectibles live in your own wallet, and your showcase stays yours for
            as long as you hold them.
          </p>
          <ButtonLink to="/marketplace">Start collecting</ButtonLink>
        </div>
        <div className="showcase-art" aria-hidden="true">
          {tierOrder.map((t) => (
            <div key={t} className={`showcase-frame tier-${t}`}>
              <TierCardArt tier={t} />
            </div>
          ))}
        </div>
      </section>

      <section className="container section" aria-labelledby="partners-title">
        <p className="eyebrow">Official partners</p>
        <h2 id="partners-title">The studios behind the collections</h2>
        <QueryState
          query={about}
          loading={
            <ul className="partners plain-list" data-loading="">
              {[0, 1, 2, 3, 4].map((i) => (
                <li key={i}>
                  <Skeleton height={96} radius="var(--radius-lg)" />
                </li>
              ))}
            </ul>
          }
          errorTitle="We couldn't load our partners"
          isEmpty={(d) => d.partners.length === 0}
          empty={
            <EmptyState title="Partners coming soon">We'll introduce our studio partners here.</EmptyState>
          }
        >
          {(data) => (
            <ul className="partners plain-list">
              {data.partners.map((p) => (
                <li key={p.slug} className="partner">
                  <img src={p.logoUrl} alt="" loading="lazy" />
                  <span>{p.name}</span>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>

      <section className="container section" aria-labelledby="team-title">
        <p className="eyebrow">Our team</p>
        <h2 id="team-title">The people behind Diginoor</h2>
        <QueryState
          query={about}
          loading={
            <ul className="team plain-list" data-loading="">
              {Array.from({ length: 10 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                <li key={i} className="team-member">
                  <Skeleton width={96} height={96} radius="50%" />
                  <Skeleton width="70%" height={16} />
                </li>
              ))}
            </ul>
          }
          error={null}
          isEmpty={(d) => d.team.length === 0}
          empty={<EmptyState title="Team profiles coming soon">We'll introduce the team here.</EmptyState>}
        >
          {(data) => (
            <ul className="team plain-list">
              {data.team.map((m) => (
                <li key={m.name} className="team-member">
                  <img
                    src={m.avatarUrl}
                    alt={`Portrait of ${m.name}`}
                    loading="lazy"
                    width={96}
                    height={96}
                  />
                  <strong>{m.name}</strong>
                  <span>{m.role}</span>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>
    </>
  );
}
