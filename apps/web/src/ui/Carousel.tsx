import { type ReactNode, useEffect, useId, useState } from "react";
import { useIsDesktop, usePrefersReducedMotion } from "../lib/hooks.ts";
import { ArrowLeftIcon, ArrowRightIcon } from "./icons.tsx";

/**
 * A looping carousel: autoplays every `intervalMs` (5 s by default), pauses while hovered or
 * focused and when the user asks for reduced motion; one item per view on mobile and tablet,
 * `desktopPerView` on desktop.
 */
export function Carousel<T>({
  items,
  label,
  renderItem,
  getKey,
  desktopPerView = 1,
  intervalMs = 5000,
}: {
  items: T[];
  label: string;
  renderItem: (item: T, index: number) => ReactNode;
  getKey: (item: T) => string;
  desktopPerView?: number;
  intervalMs?: number;
}) {
  const isDesktop = useIsDesktop();
  const reducedMotion = usePrefersReducedMotion();
  const perView = Math.max(1, Math.min(isDesktop ? desktopPerView : 1, items.length));
  const positions = Math.max(1, items.length - perView + 1);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const id = useId();
  const current = index % positions;
  const paused = hovered || focused || reducedMotion || positions < 2;

  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % positions), intervalMs);
    return () => clearInterval(timer);
  }, [paused, positions, intervalMs]);

  const go = (next: number) => setIndex(((next % positions) + positions) % positions);

  return (
    // A group, not a region: it sits in a section that already names it (APG carousel pattern), and two
    // landmarks with one name would repeat in a screen reader's landmark list. Not a form's <fieldset>.
    // biome-ignore lint/a11y/useSemanticElements: the APG carousel pattern's container is role group
    <div
      role="group"
      className="carousel"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="carousel-viewport">
        <ul
          id={id}
          className="carousel-track"
          aria-live={paused ? "polite" : "off"}
          style={{ transform: `translateX(-${(current * 100) / perView}%)` }}
        >
          {items.map((item, i) => {
            const visible = i >= current && i < current + perView;
            return (
              <li
                key={getKey(item)}
                className="carousel-slide"
                style={{ flexBasis: `${100 / perView}%` }}
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${items.length}`}
                aria-hidden={visible ? undefined : true}
                inert={visible ? undefined : true}
              >
                {renderItem(item, i)}
              </li>
            );
          })}
        </ul>
      </div>
      {positions > 1 ? (
        <div className="carousel-controls">
          <button
            type="button"
            className="icon-btn"
            aria-controls={id}
            aria-label="Previous"
            onClick={() => go(current - 1)}
          >
            <ArrowLeftIcon />
          </button>
          {positions <= 8 ? (
            <div className="carousel-dots">
              {Array.from({ length: positions }, (_, i) => (
                <button
                  // biome-ignore lint/suspicious/noArrayIndexKey: one dot per position
                  key={i}
                  type="button"
                  className="carousel-dot"
                  aria-label={`Go to slide ${i + 1}`}
                  aria-current={i === current ? "true" : undefined}
                  onClick={() => go(i)}
                />
              ))}
            </div>
          ) : (
            <span className="carousel-count tabular" aria-hidden="true">
              {current + 1} / {positions}
            </span>
          )}
          <button
            type="button"
            className="icon-btn"
            aria-controls={id}
            aria-label="Next"
            onClick={() => go(current + 1)}
          >
            <ArrowRightIcon />
          </button>
        </div>
      ) : null}
    </div>
  );
}
