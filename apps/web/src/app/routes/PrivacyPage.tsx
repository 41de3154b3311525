import { Link } from "react-router";
import { LegalDocument, type LegalSection } from "../../features/legal/components/LegalDocument.tsx";

const sections: LegalSection[] = [
  {
    id: "who",
    title: "Who we are",
    body: (
      <p>
        Diginoor ("we", "us") operates the Diginoor marketplace for licensed digital collectibles of Indian
        cinema. We are the controller of the personal data described in this policy. You can reach our data
        protection officer at privacy@diginoor.com.
      </p>
    ),
  },
  {
    id: "data",
    title: "Personal data we collect",
    body: (
      <>
        <p>We collect only what we need to run your account and your purchases:</p>
        <ul>
          <li>
            <strong>Identity and contact data:</strong> your name, date of birth, postal address, phone number
            and email address.
          </li>
          <li>
            <strong>Billing data:</strong> billing name and address and the details of your payments. Card
            numbers are handled by our payment providers; we see only the card type, last four digits and
            expiry.
          </li>
          <li>
            <strong>Account data:</strong> your password (stored only as a secure hash), profile picture,
            cover image and preferences.
          </li>
          <li>
            <strong>Blockchain data:</strong> the wallet addresses you connect and the transactions made
            through the Platform. Blockchain records are public by design.
          </li>
          <li>
            <strong>Usage data:</strong> pages visited, device and browser type, IP address and approximate
            location, collected to keep the service secure and working.
          </li>
        </ul>
        <p>
          We use this data to create and secure your account, process purchases, bids and deliveries, prevent
          fraud, provide support, meet legal obligations, and, with your consent, send you news about drops.
        </p>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <>
        <p>
          We use a small number of cookies. Essential cookies keep you signed in, protect forms against
          forgery and remember your choices; the Platform cannot work without them. With your consent, we also
          use analytics cookies to understand which pages are used so we can improve them.
        </p>
        <p>
          You can block or delete cookies in your browser settings. Blocking essential cookies will sign you
          out and prevent purchases.
        </p>
      </>
    ),
  },
  {
    id: "sharing",
    title: "How we share data",
    body: (
      <>
        <p>We do not sell your personal data. We share it only with:</p>
        <ul>
          <li>payment providers, to process your payments and prevent fraud;</li>
          <li>
            hosting, email and customer-support providers who process data on our behalf under contract;
          </li>
          <li>
            the production houses and artists whose NFTs you buy, limited to what is needed to deliver holder
            rewards (for example, a postal address for a physical reward, with your agreement);
          </li>
          <li>
            professional advisers, and authorities where the law requires it or to protect rights and safety;
          </li>
          <li>a buyer or successor of our business, who must honour this policy.</li>
        </ul>
        <p>
          Some of these recipients are outside your country. When we transfer data internationally we use
          safeguards such as contractual clauses that provide an adequate level of protection.
        </p>
      </>
    ),
  },
  {
    id: "choices",
    title: "Your choices and opting out",
    body: (
      <>
        <p>
          You can unsubscribe from marketing emails at any time with the link in each email or by writing to
          us. You can also ask us to stop any processing based on your consent. We process opt-out requests
          within <strong>ten (10) days</strong>; you may receive messages already scheduled during that time.
        </p>
        <p>
          You may ask for access to, correction of, or deletion of your personal data, or a copy of it in a
          portable format, by writing to privacy@diginoor.com. We may need to verify your identity before
          acting on a request.
        </p>
        <p>
          You can also do it yourself in <Link to="/profile/edit_profile">Edit Profile</Link>:{" "}
          <strong>Download my data</strong> emails you a link to one file with everything we hold about you,
          and <strong>Delete my account</strong> erases your name, email, phone, pictures and handle at once.
          Orders, payments and blockchain records that the law or the chain requires us to keep stay, no
          longer linked to you.
        </p>
      </>
    ),
  },
  {
    id: "grievance",
    title: "Grievances (India)",
    body: (
      <>
        <p>
          Under India's Digital Personal Data Protection Act, 2023, you may raise a grievance about how we
          handle your personal data with our Grievance Officer:
        </p>
        <address className="legal-contact">
          Grievance Officer, Diginoor
          <br />
          Email: <a href="mailto:grievance@diginoor.com">grievance@diginoor.com</a>
          <br />
          Or through our <Link to="/contact">contact form</Link>, starting your message with "Grievance".
        </address>
        <p>
          We acknowledge a grievance within <strong>48 hours</strong> and answer it within{" "}
          <strong>thirty (30) days</strong>. If you are not satisfied with our answer, you may complain to the
          Data Protection Board of India.
        </p>
      </>
    ),
  },
  {
    id: "minors",
    title: "Minors",
    body: (
      <p>
        The Platform is intended for adults. If you are under eighteen (18), you may use the Platform only
        with the involvement and consent of a parent or legal guardian, who accepts these terms on your behalf
        and is responsible for your purchases. If we learn that we have collected data from a minor without
        such consent, we will delete it.
      </p>
    ),
  },
  {
    id: "retention",
    title: "Retention and security",
    body: (
      <>
        <p>
          We keep personal data only as long as we need it for the purposes above: account data for as long as
          your account is open, and purchase and billing records for as long as tax and anti-money-laundering
          laws require after your last transaction. We then delete or anonymise it. Data written to a public
          blockchain cannot be deleted by anyone.
        </p>
        <p>
          We protect your data with encryption in transit, hashed passwords, access controls and regular
          reviews. No system is perfectly secure; if a breach affects you, we will tell you and the regulator
          as the law requires.
        </p>
      </>
    ),
  },
  {
    id: "liability",
    title: "Limit of liability",
    body: (
      <p>
        To the extent permitted by law, our liability to you for any claim relating to the handling of your
        personal data is limited to the amounts you paid to Diginoor in the <strong>three (3) months</strong>{" "}
        before the event giving rise to the claim. This does not limit any liability that cannot be limited by
        law.
      </p>
    ),
  },
  {
    id: "law",
    title: "Governing law and changes",
    body: (
      <>
        <p>
          This policy is governed by the laws of Singapore, including the Personal Data Protection Act 2012,
          without limiting the protection given to you by the data protection laws of the country where you
          live. You may complain to the Personal Data Protection Commission of Singapore or to your local
          regulator.
        </p>
        <p>
          We will post any changes to this policy on this page and, for significant changes, notify you by
          email. See also our <Link to="/Termscondition">Terms and Conditions</Link>.
        </p>
      </>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      updated="1 November 2026"
      intro={
        <p>
          Your privacy matters to us. This policy explains what personal data Diginoor collects, why, who we
          share it with, how long we keep it, and the choices you have.
        </p>
      }
      sections={sections}
    />
  );
}
