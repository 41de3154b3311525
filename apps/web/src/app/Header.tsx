import { useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useCurrentUser, useSignOut } from "../lib/session.ts";
import { ButtonLink } from "../ui/Button.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { NotificationBell } from "./NotificationBell.tsx";
import { ChevronIcon, Logo, MenuIcon, SocialLinks, UserIcon, WalletIcon } from "../ui/icons.tsx";
import { Skeleton } from "../ui/Skeleton.tsx";

export const mainNav = [
  { to: "/collections", label: "Collections" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/lottery", label: "Lottery" },
  { to: "/how it works", label: "How it works" },
  { to: "/blog", label: "Blog" },
  { to: "/about", label: "About" },
] as const;

function loginHref(pathname: string, search: string) {
  const here = pathname + search;
  return here === "/" || here.startsWith("/login") || here.startsWith("/signup")
    ? "/login"
    : `/login?next=${encodeURIComponent(here)}`;
}

function UserMenu({ name, staff }: { name: string; staff: boolean }) {
  const [open, setOpen] = useState(false);
  const signOut = useSignOut();
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus(); // back to the control that opened the menu
      }
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        ref={buttonRef}
        className="user-menu-button"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((v) => !v)}
      >
        <UserIcon width={20} height={20} />
        <span className="user-menu-name">{name}</span>
        <ChevronIcon width={16} height={16} />
      </button>
      {open ? (
        <ul className="user-menu-list">
          <li>
            <Link to="/profile" onClick={() => setOpen(false)}>
              Profile
            </Link>
          </li>
          {staff ? (
            <li>
              <Link to="/admin" onClick={() => setOpen(false)}>
                Studio console
              </Link>
            </li>
          ) : null}
          <li>
            <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              Sign out
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

export function Header() {
  const { user, isLoading } = useCurrentUser();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useSignOut();
  const login = loginHref(location.pathname, location.search);

  // Close the mobile menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route change only
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);

  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link to="/" className="site-logo" aria-label="Diginoor home">
          <Logo />
        </Link>
        <nav className="site-nav" aria-label="Main">
          <ul>
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header-actions">
          <Link to="/wallet" className="icon-btn" aria-label="Wallet">
            <WalletIcon />
          </Link>
          {user ? <NotificationBell /> : null}
          <div className="site-header-auth">
            {isLoading ? (
              <Skeleton width={150} height={36} radius={999} />
            ) : user ? (
              <UserMenu name={user.name} staff={user.role === "admin" || user.role === "studio"} />
            ) : (
              <>
                <ButtonLink to={login} variant="ghost" size="sm">
                  Login
                </ButtonLink>
                <ButtonLink to="/signup" variant="primary" size="sm">
                  Signup
                </ButtonLink>
              </>
            )}
          </div>
          <button
            type="button"
            className="icon-btn site-menu-button"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      <Dialog open={menuOpen} onClose={() => setMenuOpen(false)} title="Menu" variant="sheet">
        <nav aria-label="Mobile" className="mobile-nav">
          <ul>
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/contact">Contact</NavLink>
            </li>
            <li>
              <NavLink to={user ? "/profile" : login}>My Account</NavLink>
            </li>
            <li>
              <NavLink to="/wallet">Wallet</NavLink>
            </li>
          </ul>
        </nav>
        <div className="mobile-nav-auth">
          {user ? (
            <button
              type="button"
              className="btn btn-secondary btn-block"
              onClick={() => signOut.mutate()}
              disabled={signOut.isPending}
            >
              Sign out
            </button>
          ) : (
            <>
              <ButtonLink to={login} variant="secondary" block>
                Login
              </ButtonLink>
              <ButtonLink to="/signup" variant="primary" block>
                Signup
              </ButtonLink>
            </>
          )}
        </div>
        <SocialLinks className="mobile-social" />
      </Dialog>
    </header>
  );
}
