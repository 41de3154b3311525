import type { ElementType, ReactNode } from "react";

/** The page-width column with the responsive side padding. */
export function Container({
  as: Tag = "div",
  className,
  children,
}: {
  as?: ElementType;
  className?: string;
  children: ReactNode;
}) {
  return <Tag className={`container${className ? ` ${className}` : ""}`}>{children}</Tag>;
}
