import { Link } from "react-router";
import { LazyNewsletterForm } from "../features/newsletter/components/LazyNewsletterForm.tsx";
import { Logo, SocialLinks } from "../ui/icons.tsx";

const columns = [
  {
    title: "Marketplace",
    links: [
      { to: "/marketplace", label: "Explore" },
      { to: "/collections", label: "Collections" },
      { to: "/lottery", label: "Lottery" },
      { to: "/blog/what-is-an-nft", label: "All about NFTs" },
      { to: "/blog", label: "Blog" },
    ],
  },
  {
    title: "Support",
    links: [
      { to: "/how it works", label: "Help Center" },
      { to: "/how it works#faq", label: "FAQS" },
      { to: "/contact", label: "Contact Us" },
      { to: "/contact?topic=feature", label: "Suggest feature" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/about", label: "About" },
      { to: "/contact?topic=jobs", label: "Jobs" },
      { to: "/contact?topic=partner", label: "Become a partner" },
      { to: "/contact?topic=investors", label: "investor list" },
    ],
  },
] as const;

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer-top">
          <div className="site-footer-brand">
            <Link to="/" aria-label="Diginoor home" className="site-logo">
              <Logo />
            </Link>
            <p className="muted">
              Licensed collectibles of Indian cinema, made with the studios and stars you love.
            </p>
            <LazyNewsletterForm />
          </div>
          {columns.map((col) => (
            <nav key={col.title} className="site-footer-col" aria-label={col.title}>
              <h2>{col.title}</h2>
              <ul>
                {col.links.map((link) => (
                  <li key={link.label}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="site-footer-bottom">
          <p>© {year} Diginoor. All rights reserved.</p>
          <p className="site-footer-legal">
            <Link to="/Termscondition">Terms</Link>
            <Link to="/Privacypolicy">Privacy</Link>
          </p>
          <SocialLinks />
        </div>
      </div>
    </footer>
  );
}
