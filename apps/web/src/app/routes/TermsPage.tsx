import { Link } from "react-router";
import { LegalDocument, type LegalSection } from "../../features/legal/components/LegalDocument.tsx";

const sections: LegalSection[] = [
  {
    id: "acceptance",
    title: "Acceptance of these terms",
    body: (
      <>
        <p>
          These Terms and Conditions ("Terms") form a binding agreement between you and Diginoor ("Diginoor",
          "we", "us") and govern your access to and use of the Diginoor website, marketplace, applications and
          related services (together, the "Platform"), including the purchase, sale, bidding on, holding and
          display of digital collectibles ("NFTs").
        </p>
        <p>
          By creating an account, connecting a wallet, or buying, bidding on or selling an NFT, you confirm
          that you have read, understood and accepted these Terms and our{" "}
          <Link to="/Privacypolicy">Privacy Policy</Link>. If you do not accept them, you must not use the
          Platform.
        </p>
        <p>
          We may update these Terms from time to time. When we make material changes we will notify you by
          email or on the Platform before they take effect. Continuing to use the Platform after the effective
          date means you accept the updated Terms.
        </p>
      </>
    ),
  },
  {
    id: "account",
    title: "Your account and wallet set-up",
    body: (
      <>
        <p>
          To buy, bid or sell you must create an account with accurate and complete information and keep it up
          to date. You must verify your email address before your account can transact. You are responsible
          for keeping your password confidential and for everything that happens under your account; tell us
          immediately at support@diginoor.com if you suspect unauthorised use.
        </p>
        <p>
          NFTs are delivered to a blockchain wallet that you connect to your account. You are solely
          responsible for your wallet, including its security, your private keys and recovery phrase. Diginoor
          never has access to your private keys and cannot recover them, reverse transactions made from your
          wallet, or restore NFTs sent to a wrong address.
        </p>
        <p>
          You may hold only one account. Accounts are personal and may not be sold, transferred or shared.
        </p>
      </>
    ),
  },
  {
    id: "buying",
    title: "Buying packs and buying from other users",
    body: (
      <>
        <h3>Primary sales</h3>
        <p>
          Diginoor sells NFTs, individually or in packs, in limited editions made with licensed production
          houses and artists. The price, edition size, tier and any rewards are shown on each NFT's page
          before you buy. Prices are shown in rupees; the checkout states the currency and the amount you are
          charged before you pay, and where you pay in cryptocurrency, the amount is converted at the rate
          shown at checkout. Your purchase is complete when payment is confirmed and the NFT is recorded as
          yours on the blockchain; delivery to your wallet normally takes seconds.
        </p>
        <h3>Auctions</h3>
        <p>
          Some NFTs are sold by auction with a reserve price and an end time. Each bid must exceed the current
          highest bid, is binding once submitted, and cannot be withdrawn. Auctions are settled in
          cryptocurrency. When the auction ends, the highest valid bid that meets the reserve wins.
        </p>
        <h3>The marketplace</h3>
        <p>
          You may buy NFTs listed by other users on the marketplace, at a fixed price or by auction. Such
          sales are between you and the seller; Diginoor provides the platform and the smart contracts that
          execute the sale but is not a party to it. On every sale and resale, 10% of the price is paid as a
          royalty to the production house or creator of the NFT, and any marketplace fee is shown before you
          confirm.
        </p>
      </>
    ),
  },
  {
    id: "challenges",
    title: "Earning free tokens through challenges",
    body: (
      <>
        <p>
          From time to time we may run challenges, quizzes, contests or promotions in which you can earn NFTs
          or other rewards without paying ("Free Tokens"). Each challenge has its own rules, published with
          it, which apply in addition to these Terms.
        </p>
        <p>
          Free Tokens have no cash value, may be limited in number and in who may take part, and may be
          withdrawn if they were obtained through fraud, automation, multiple accounts or any breach of these
          Terms. We may end or change a challenge at any time where reasonably necessary, without affecting
          rewards already fairly earned.
        </p>
      </>
    ),
  },
  {
    id: "showcase",
    title: "Showcasing",
    body: (
      <>
        <p>
          Your profile includes a showcase where the NFTs you own are displayed to other users. By using the
          showcase, you allow Diginoor to display your profile name, avatar, cover image and the NFTs you hold
          on the Platform and in promotional material about your collection.
        </p>
        <p>
          Anything you upload to your profile must be yours to share and must not be unlawful, offensive or
          infringe anyone's rights. We may remove content that breaches these Terms.
        </p>
      </>
    ),
  },
  {
    id: "refunds",
    title: "No refunds",
    body: (
      <>
        <p>
          Because NFTs are delivered on the blockchain and cannot be recalled, all purchases, winning bids and
          marketplace sales are final. We do not offer refunds or exchanges, including if the value of an NFT
          or of a cryptocurrency changes after your purchase.
        </p>
        <p>
          This does not affect any rights you have under mandatory consumer law. If you were charged but did
          not receive your NFT, or were charged twice, contact us and we will investigate and put it right.
        </p>
      </>
    ),
  },
  {
    id: "fees-taxes",
    title: "Network fees and taxes",
    body: (
      <>
        <p>
          Blockchain transactions require a network fee ("gas") paid to the network, not to Diginoor. The
          buyer pays the network fees for a purchase or bid; the amount is estimated before you confirm and
          may change with network conditions. Fees paid for a transaction that fails on the blockchain are not
          refundable by Diginoor.
        </p>
        <p>
          You are responsible for all taxes, duties and levies that apply to your purchases, sales and
          holdings of NFTs and to any gains you make, other than taxes on Diginoor's own income. Where the law
          requires us to collect tax, it is added to the price at checkout.
        </p>
      </>
    ),
  },
  {
    id: "licence",
    title: "Limited licence to the art",
    body: (
      <>
        <p>
          The films, images, music, names and likenesses associated with each NFT (the "Art") are owned by the
          production houses, artists and other rights holders who licensed them to Diginoor. Owning an NFT
          does not transfer ownership of the Art or any copyright in it, except where an NFT's page expressly
          grants an additional right (for example, a stated share of copyright in a one-of-one recording).
        </p>
        <p>
          For as long as you own an NFT, you receive a worldwide, non-exclusive, non-transferable,
          royalty-free licence to use, copy and display the Art for that NFT for your own personal,
          non-commercial use: to show it in your showcase, in a wallet or marketplace that verifies your
          ownership, or on social media with credit to the rights holder. The licence passes to the next owner
          when you sell or transfer the NFT, and ends for you at that moment.
        </p>
        <p>
          You may not modify the Art, use it to promote any product or service, sell merchandise showing it,
          or use it in any way that suggests endorsement by the film, the studio or the artist.
        </p>
      </>
    ),
  },
  {
    id: "prohibited",
    title: "Prohibited activities and their consequences",
    body: (
      <>
        <p>When using the Platform you must not:</p>
        <ul>
          <li>
            use stolen payment details or funds derived from crime, or launder money or evade sanctions;
          </li>
          <li>
            manipulate prices or auctions, including wash trading, shill bidding and coordinated bidding;
          </li>
          <li>create multiple accounts, impersonate anyone, or misrepresent your identity or age;</li>
          <li>
            use bots, scrapers or automated means to buy, bid or access the Platform without our permission;
          </li>
          <li>attack, probe, overload or interfere with the Platform, its smart contracts or other users;</li>
          <li>infringe intellectual property, or upload unlawful, abusive or misleading content;</li>
          <li>exploit errors in pricing, software or smart contracts instead of reporting them to us.</li>
        </ul>
        <p>
          If we reasonably believe you have engaged in a prohibited activity, we may, in proportion to the
          breach: suspend or restrict your account; void or cancel affected transactions and bids; delist
          NFTs; withhold rewards or Free Tokens; confiscate or freeze NFTs obtained through the prohibited
          activity where our smart contracts allow it; and report the matter to the authorities. We will tell
          you what we did and why, unless the law or an investigation prevents us.
        </p>
      </>
    ),
  },
  {
    id: "termination",
    title: "Termination",
    body: (
      <>
        <p>
          You may close your account at any time from your profile or by writing to us. NFTs in your wallet
          remain yours after closing; any open listings and bids are cancelled where possible.
        </p>
        <p>
          We may suspend or terminate your account if you materially breach these Terms, if required by law,
          or if we stop offering the Platform, giving you reasonable notice where we can. Sections that by
          their nature should survive termination (including the licence limits, disclaimers, limit of
          liability, indemnity and governing law) continue to apply.
        </p>
      </>
    ),
  },
  {
    id: "disclaimers",
    title: "Disclaimers",
    body: (
      <>
        <p>
          The Platform is provided "as is" and "as available". To the fullest extent permitted by law,
          Diginoor makes no warranty that the Platform will be uninterrupted, secure or error-free, or that
          any NFT will keep or gain value. NFTs are collectibles, not investments, and nothing on the Platform
          is financial, investment or tax advice.
        </p>
        <p>
          We do not control the blockchain networks, wallets or third-party payment providers used with the
          Platform and are not responsible for their availability, fees or failures.
        </p>
      </>
    ),
  },
  {
    id: "liability",
    title: "Limit of liability",
    body: (
      <>
        <p>
          To the fullest extent permitted by law, Diginoor is not liable for any indirect, incidental,
          special, consequential or punitive loss, or for loss of profits, revenue, data, goodwill or
          opportunity, arising from your use of the Platform.
        </p>
        <p>
          Our total liability to you for all claims arising from or relating to these Terms or the Platform is
          limited to the amounts you paid to Diginoor in the <strong>two (2) months</strong> before the event
          giving rise to the claim. Nothing in these Terms limits liability for death or personal injury
          caused by negligence, for fraud, or for anything else that cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    id: "risks",
    title: "Assumption of risk",
    body: (
      <>
        <p>By using the Platform you accept that:</p>
        <ul>
          <li>the prices of NFTs and cryptocurrencies are volatile and can fall to zero;</li>
          <li>
            blockchain transactions are irreversible, and mistakes such as a wrong address cannot be undone;
          </li>
          <li>
            smart contracts, wallets and networks can contain flaws or be attacked, and networks can be
            congested or forked;
          </li>
          <li>
            laws and regulations on digital assets are changing and may affect your ability to hold or trade
            NFTs;
          </li>
          <li>the loss of your private keys or recovery phrase means the permanent loss of your NFTs.</li>
        </ul>
      </>
    ),
  },
  {
    id: "indemnity",
    title: "Indemnity",
    body: (
      <p>
        You agree to indemnify and hold harmless Diginoor, its affiliates, licensors and staff from any
        claims, losses, liabilities and reasonable costs (including legal fees) arising from your breach of
        these Terms, your misuse of the Platform or the Art, or your violation of any law or of anyone's
        rights.
      </p>
    ),
  },
  {
    id: "force-majeure",
    title: "Force majeure",
    body: (
      <>
        <p>
          Neither party is liable for a failure or delay in performing its obligations caused by events beyond
          its reasonable control, such as natural disasters, epidemics, war, terrorism, civil unrest,
          government action, failures of blockchain networks, power or telecommunications, or attacks on
          infrastructure ("Force Majeure").
        </p>
        <p>
          The affected party must notify the other promptly and use reasonable efforts to resume performance.
          If the Force Majeure is not cured within <strong>forty-five (45) days</strong>, either party may
          terminate the affected obligations by giving <strong>fifteen (15) days' written notice</strong> to
          the other.
        </p>
      </>
    ),
  },
  {
    id: "law",
    title: "Governing law and contact",
    body: (
      <>
        <p>
          These Terms are governed by the laws of Singapore. The courts of Singapore have exclusive
          jurisdiction over any dispute arising from them, without limiting any mandatory rights you have as a
          consumer where you live.
        </p>
        <p>
          Questions about these Terms? Write to legal@diginoor.com or use our{" "}
          <Link to="/contact">contact form</Link>.
        </p>
      </>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalDocument
      title="Terms and Conditions"
      updated="1 November 2026"
      intro={
        <p>
          Please read these terms carefully. They explain what you can expect from Diginoor, what we expect
          from you, and the rules for buying, selling and owning licensed NFTs of Indian cinema.
        </p>
      }
      sections={sections}
    />
  );
}
