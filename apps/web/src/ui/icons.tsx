import type { SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement>;

/** A decorative line icon (hidden from assistive tech; the control around it carries the label). */
function Svg({ children, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const HeartIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.6 4.5 7.1 4.5c2 0 3.6 1.1 4.9 2.9 1.3-1.8 2.9-2.9 4.9-2.9 3.5 0 5.6 3.5 4.4 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
  </Svg>
);
export const ShareIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="18" cy="5" r="2.5" />
    <circle cx="6" cy="12" r="2.5" />
    <circle cx="18" cy="19" r="2.5" />
    <path d="M8.2 10.8l7.6-4.4M8.2 13.2l7.6 4.4" />
  </Svg>
);
export const CopyIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h9" />
  </Svg>
);
export const WalletIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 7.5A2.5 2.5 0 0 1 5.5 5H18v3" />
    <rect x="3" y="8" width="18" height="11" rx="2.5" />
    <circle cx="16.5" cy="13.5" r="1.2" fill="currentColor" />
  </Svg>
);
export const BellIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
    <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
  </Svg>
);
export const MenuIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Svg>
);
export const SearchIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </Svg>
);
export const FilterIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 6h16M7 12h10M10 18h4" />
  </Svg>
);
export const ChevronIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 9l6 6 6-6" />
  </Svg>
);
export const ArrowLeftIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M15 5l-7 7 7 7" />
  </Svg>
);
export const ArrowRightIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9 5l7 7-7 7" />
  </Svg>
);
export const UserIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c1.2-4 4.3-6 8-6s6.8 2 8 6" />
  </Svg>
);
export const PlayIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
  </Svg>
);

export const SproutIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 21v-9" />
    <path d="M12 12c0-4-3-6-7-6 0 4 3 6 7 6z" />
    <path d="M12 10c0-3.5 2.5-6 6.5-6 0 3.5-2.5 6-6.5 6z" />
  </Svg>
);

/** Brand marks for the social links (simple geometric glyphs, no third-party assets). */
export const socialLinks = [
  { name: "Facebook", href: "https://www.facebook.com/diginoor", glyph: "f" },
  { name: "Twitter", href: "https://twitter.com/diginoor", glyph: "𝕏" },
  { name: "Discord", href: "https://discord.gg/diginoor", glyph: "D" },
  { name: "LinkedIn", href: "https://www.linkedin.com/company/diginoor", glyph: "in" },
  { name: "Instagram", href: "https://www.instagram.com/diginoor", glyph: "IG" },
  { name: "WhatsApp", href: "https://wa.me/6560000000", glyph: "W" },
  { name: "Telegram", href: "https://t.me/diginoor", glyph: "T" },
] as const;

export function SocialLinks({ className }: { className?: string }) {
  return (
    <ul className={`social-links${className ? ` ${className}` : ""}`}>
      {socialLinks.map((s) => (
        <li key={s.name}>
          <a href={s.href} target="_blank" rel="noopener noreferrer" title={s.name}>
            <span aria-hidden="true">{s.glyph}</span>
            <span className="visually-hidden">Diginoor on {s.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The Diginoor wordmark: a gold film-frame "D" and the name in the display face. */
export function Logo() {
  return (
    <span className="logo">
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
        <rect x="1" y="1" width="30" height="30" rx="8" fill="#16141d" stroke="#e9b949" strokeWidth="2" />
        <path d="M10 8h6.5a8 8 0 0 1 0 16H10z" fill="#e9b949" />
        <path d="M13 12h3.2a4 4 0 0 1 0 8H13z" fill="#16141d" />
      </svg>
      <span className="logo-text">Diginoor</span>
    </span>
  );
}
