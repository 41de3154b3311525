import type { ShowcaseToken } from "@diginoor/api/social";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ToastProvider } from "../../ui/Toast.tsx";
import { HIDDEN_TOAST, HIDE_NOTE, ShowcaseTab } from "./social.tsx";

/**
 * Issue 23 point 11: hiding a token only takes it off the profile; the chain (and our token API) still
 * list it. The owner's showcase says so next to every Hide button, and the toast after hiding repeats it.
 */
const token: ShowcaseToken = {
  tokenId: "7",
  nftId: "abcdefgh",
  edition: 1,
  owner: "0x1111111111111111111111111111111111111111",
  listing: null,
  auction: null,
  hidden: false,
  nft: { title: "Neruppu Da", imageUrl: "/media/a.svg", tier: "rare", tierLabel: "Rare", film: "Kabali" },
  pinned: false,
  hiddenFromShowcase: false,
};

function render(own: boolean) {
  const client = new QueryClient();
  client.setQueryData(["showcase", own ? "me" : "fan-1"], { items: [token] });
  client.setQueryData(["chain"], { nativeSymbol: "POL" });
  const router = createMemoryRouter([{ path: "*", element: <ShowcaseTab handle="fan-1" own={own} /> }]);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe("the showcase's Hide", () => {
  it("says, next to the owner's Hide button, that the blockchain still shows the token", () => {
    const html = render(true);
    expect(html).toContain(HIDE_NOTE.replaceAll("'", "&#x27;"));
    const note = /<p class="showcase-note" id="([^"]+)">/.exec(html)?.[1];
    expect(note).toBeTruthy();
    // The Hide button is described by the note, so a screen reader reads it with the button.
    expect(html).toMatch(new RegExp(`<button[^>]*aria-describedby="${note}"[^>]*>Hide</button>`));
    expect(HIDE_NOTE).toMatch(/only takes an NFT off your public profile/);
    expect(HIDE_NOTE).toMatch(/blockchain is public/);
    expect(HIDDEN_TOAST).toMatch(/stays visible on the public blockchain/);
  });

  it("shows visitors neither the note nor the tools", () => {
    const html = render(false);
    expect(html).not.toContain("showcase-note");
    expect(html).not.toContain(">Hide</button>");
    expect(html).toContain("Neruppu Da");
  });
});
