import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

// axe-core itself, injected into the page (@axe-core/playwright wants Node 22; this is what it does).
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * The serious and critical axe-core violations, and any landmark violation, on the page as it is now (WCAG 2.x A and AA rules and
 * axe's best practices), one line per violation with the first offending elements.
 */
export async function a11yProblems(page: Page, where: string): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResult> } })
      .axe;
    interface AxeResult {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  return (
    violations
      // Serious and critical findings, and every landmark finding (a duplicate landmark is "moderate"
      // to axe, but a screen reader's landmark list then shows two places with one name).
      .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id.startsWith("landmark"))
      .map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(", ")}`)
  );
}
