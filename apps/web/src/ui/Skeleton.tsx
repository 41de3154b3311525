import type { CSSProperties } from "react";

/** A placeholder shaped like the content that is loading. Shown until the data arrives, never on a timer. */
export function Skeleton({
  width,
  height = "1em",
  radius,
  className,
  style,
}: {
  width?: CSSProperties["width"];
  height?: CSSProperties["height"];
  radius?: CSSProperties["borderRadius"];
  className?: string;
  style?: CSSProperties;
}) {
  return (
    <span
      className={`skeleton${className ? ` ${className}` : ""}`}
      style={{ width: width ?? "100%", height, borderRadius: radius, ...style }}
      aria-hidden="true"
      data-skeleton=""
    />
  );
}
