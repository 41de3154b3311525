import { webPagePaths } from "@diginoor/api/web-paths";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { routes } from "./routes.tsx";

function pagePaths(list: RouteObject[], base: string): string[] {
  return list.flatMap((r) => {
    if (r.path === "*") return [];
    const here = r.index ? base : r.path ? `${base.replace(/\/$/, "")}/${r.path.replace(/^\//, "")}` : base;
    const own = r.index || (r.path && !r.children) ? [here || "/"] : [];
    return [...own, ...(r.children ? pagePaths(r.children, here) : [])];
  });
}

describe("route table", () => {
  it("serves exactly the pages the server knows (anything else is a 404 with status 404)", () => {
    expect(pagePaths(routes, "").sort()).toEqual([...webPagePaths].sort());
  });
});
