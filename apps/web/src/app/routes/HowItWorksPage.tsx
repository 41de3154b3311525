import { useEffect, useId, useState } from "react";
import { useLocation } from "react-router";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { useChainLabel } from "../../lib/wallet/chain.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { ChevronIcon, PlayIcon } from "../../ui/icons.tsx";
import { faqs, tutorials } from "../../features/help/faq.ts";
import "./help.css";

/** A generated poster frame: the tutorial's number and title on a film-strip background. */
function PosterFrame({ index, title }: { index: number; title: string }) {
  const hue = [42, 220, 268, 10, 160][index % 5];
  return (
    <svg viewBox="0 0 320 180" className="video-poster" aria-hidden="true">
      <defs>
        <linearGradient id={`vp-${index}`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${hue} 60% 22%)`} />
          <stop offset="1" stopColor="#0b0a10" />
        </linearGradient>
      </defs>
      <rect width="320" height="180" fill={`url(#vp-${index})`} />
      {Array.from({ length: 12 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: decoration
        <g key={i} fill="#000" opacity="0.45">
          <rect x={8 + i * 27} y="6" width="14" height="10" rx="2" />
          <rect x={8 + i * 27} y="164" width="14" height="10" rx="2" />
        </g>
      ))}
      <text
        x="20"
        y="70"
        fill={`hsl(${hue} 80% 70%)`}
        fontFamily="Playfair Display, Georgia, serif"
        fontSize="40"
        fontWeight="700"
      >
        {String(index + 1).padStart(2, "0")}
      </text>
      <text x="20" y="100" fill="#f3f0f7" fontFamily="Inter, sans-serif" fontSize="13" fontWeight="600">
        {title.length > 40 ? `${title.slice(0, 38)}…` : title}
      </text>
    </svg>
  );
}

function FaqItem({ q, a, open, onToggle }: { q: string; a: string; open: boolean; onToggle: () => void }) {
  const id = useId();
  return (
    <li className="faq-item">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          id={`${id}-button`}
          onClick={onToggle}
        >
          <span>{q}</span>
          <ChevronIcon width={20} height={20} />
        </button>
      </h3>
      <section id={`${id}-panel`} aria-labelledby={`${id}-button`} hidden={!open} className="faq-panel">
        <p>{a}</p>
      </section>
    </li>
  );
}

export function HowItWorksPage() {
  useDocumentTitle("How it works");
  const [open, setOpen] = useState<number | null>(0);
  const location = useLocation();
  const chain = useChainLabel();
  const chainText = chain ? chain.name : "the blockchain";

  // Links such as /how it works#faq or #wallet scroll to their section once the page has rendered.
  useEffect(() => {
    const id = location.hash.slice(1);
    if (id) document.getElementById(decodeURIComponent(id))?.scrollIntoView();
  }, [location.hash]);

  return (
    <>
      <section className="container page-head">
        <p className="eyebrow">How it works</p>
        <h1>What is an NFT?</h1>
        <p>
          An NFT (non-fungible token) is a one-of-a-kind record on a blockchain that proves who owns a
          particular digital item. On Diginoor, each NFT is an officially licensed moment from Indian cinema:
          the record lives on {chainText}, the art is yours to display, and no one can copy your ownership.
        </p>
      </section>

      <section className="container section" aria-labelledby="videos-title">
        <div className="section-head">
          <h2 id="videos-title">Video tutorials</h2>
        </div>
        <ul className="videos plain-list">
          {tutorials.map((t, i) => (
            <li key={t.title} className="video-card">
              <div className="video-frame">
                <PosterFrame index={i} title={t.title} />
                <span className="video-soon">
                  <PlayIcon width={20} height={20} /> Video coming soon
                </span>
              </div>
              <h3>{t.title}</h3>
              <p className="muted">{t.minutes}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="container section" id="faq" aria-labelledby="faq-title">
        <div className="section-head">
          <h2 id="faq-title">Frequently asked questions</h2>
        </div>
        <ul className="faq plain-list">
          {faqs.map((f, i) => (
            <FaqItem
              key={f.q}
              q={f.q}
              a={f.a}
              open={open === i}
              onToggle={() => setOpen(open === i ? null : i)}
            />
          ))}
        </ul>
      </section>

      <section className="container section help-split" id="get-started">
        <section className="card" aria-labelledby="payments-title">
          <p className="eyebrow">Payments</p>
          <h2 id="payments-title">Pay the way you like</h2>
          <ul className="check-list">
            <li>
              <strong>Card.</strong> Buy fixed-price NFTs with a debit or credit card, or in rupees by UPI.
              The checkout says whether you are charged in rupees or US dollars before you pay.
            </li>
            <li>
              <strong>Crypto.</strong> Pay from your own wallet on {chainText}
              {chain ? ` in ${chain.symbol}` : ""}. Auctions are crypto only.
            </li>
            <li>
              <strong>Fees.</strong> Prices include the NFT; the network fee for the blockchain transaction is
              shown before you confirm.
            </li>
            <li>
              <strong>Royalties.</strong> 10% of every sale and resale goes to the production house.
            </li>
          </ul>
        </section>
        <section className="card" id="wallet" aria-labelledby="wallet-title">
          <p className="eyebrow">Connect a wallet</p>
          <h2 id="wallet-title">Your wallet, your collection</h2>
          <p className="muted">
            Your NFTs are delivered to a wallet you control. Connect one in under a minute: a browser wallet
            like MetaMask, a mobile wallet through a QR code, or an email wallet if you are new to crypto.
          </p>
          <ol className="steps">
            <li>Sign in to Diginoor.</li>
            <li>Open the wallet page from the wallet icon in the header.</li>
            <li>Choose how to connect and approve the request in your wallet.</li>
          </ol>
          <ButtonLink to="/wallet">Connect a wallet</ButtonLink>
        </section>
      </section>
    </>
  );
}
