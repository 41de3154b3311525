import { useEffect, useId, useState } from "react";
import { useLocation } from "react-router";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { ChevronIcon } from "../../ui/icons.tsx";
import { faqs, firstSteps } from "../../features/help/faq.ts";
import "./help.css";

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
          An NFT is a one-of-a-kind digital collectible with a public record of who owns it. On Diginoor, each
          NFT is an officially licensed moment from Indian cinema: the art is yours to display, and no one can
          copy your ownership.
        </p>
      </section>

      <section className="container section" aria-labelledby="steps-title">
        <div className="section-head">
          <h2 id="steps-title">Your first NFT in three steps</h2>
        </div>
        <ol className="first-steps plain-list">
          {firstSteps.map((s, i) => (
            <li key={s.title} className="card first-step">
              <span className="first-step-number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{s.title}</h3>
              <p className="muted">{s.text}</p>
            </li>
          ))}
        </ol>
        <ButtonLink to="/marketplace">Browse the marketplace</ButtonLink>
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
          <h2 id="payments-title">Pay the way you already do</h2>
          <ul className="check-list">
            <li>
              <strong>Rupees, by card or UPI.</strong> Prices are shown in rupees, and the checkout shows
              exactly what you are charged before you pay.
            </li>
            <li>
              <strong>No gas fees for you.</strong> Every blockchain transaction has a small network fee; for
              your passkey wallet, Diginoor pays it.
            </li>
            <li>
              <strong>Crypto welcome.</strong> Have a crypto wallet? Pay from it at checkout. Auctions are
              paid in crypto only.
            </li>
            <li>
              <strong>Royalties.</strong> 10% of every sale and resale goes to the production house.
            </li>
          </ul>
        </section>
        <section className="card" id="wallet" aria-labelledby="wallet-title">
          <p className="eyebrow">Your wallet</p>
          <h2 id="wallet-title">A wallet made for you</h2>
          <p className="muted">
            The first time you buy, Diginoor makes you a wallet, secured by a passkey on your device: your
            fingerprint, face or screen lock. There is no app to install and no seed phrase to keep.
          </p>
          <p className="muted">Already use a crypto wallet? You can link it too:</p>
          <ol className="steps">
            <li>Sign in to Diginoor.</li>
            <li>Open the wallet page from the wallet icon in the header.</li>
            <li>Link your wallet and choose whether your purchases go to it.</li>
          </ol>
          <ButtonLink to="/wallet" variant="secondary">
            Open the wallet page
          </ButtonLink>
        </section>
      </section>
    </>
  );
}
