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

describe("server-rendered pages (decision 033)", () => {
  function withSsr(list: RouteObject[]): RouteObject[] {
    return list.flatMap((r) => [
      ...((r.handle as { ssr?: string } | undefined)?.ssr ? [r] : []),
      ...withSsr(r.children ?? []),
    ]);
  }

  it("name the module each route loads, so the server links that page's CSS and chunks", () => {
    const marked = withSsr(routes);
    expect(marked.length).toBeGreaterThanOrEqual(10);
    for (const route of marked) {
      const module = (route.handle as { ssr: string }).ssr;
      expect(module).toMatch(/^src\/(app|features\/[\w-]+)\/routes\/\w+\.tsx$/);
      const imported = String(route.lazy).match(/import\w*\(["']([^"']+)["']\)/)?.[1] ?? "";
      // "./routes/X.tsx" as written, or "/src/app/routes/X.tsx" as the test runner rewrites it.
      const resolved = imported.startsWith(".")
        ? new URL(imported, "file:///src/app/").pathname.slice(1)
        : imported.replace(/^\//, "");
      expect(resolved).toBe(module);
    }
  });

  it("include the three pages Lighthouse measures", () => {
    const paths = withSsr(routes).map((r) => (r.index ? "/" : r.path));
    expect(paths).toEqual(expect.arrayContaining(["/", "marketplace", "nftdetail/:id"]));
  });
});
