// @vitest-environment happy-dom
// The studio console's sections as a staff member uses them: forms checked by the packages/api
// schemas before anything is sent, the exact bodies sent, the server's answers shown on the fields.
import type { AdminUser, Studio } from "@diginoor/api/admin";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { apiError, fakeApi, renderPage, type SentRequest } from "../../test/fake-api.tsx";
import { NftsSection, StudiosSection, TokensSection, UsersSection } from "./sections.tsx";

afterEach(cleanup);

const yrf: Studio = {
  id: 1,
  slug: "yash-raj-films",
  name: "Yash Raj Films",
  description: "",
  logoUrl: "/media/yrf.png",
  isPartner: true,
};

const writes = (sent: SentRequest[]) => sent.filter((r) => r.method !== "GET");

function studiosApi(answer: (r: SentRequest) => { status?: number; body?: unknown }) {
  const items: Studio[] = [yrf];
  const sent = fakeApi({
    "GET /api/v1/admin/studios": () => ({ body: { items } }),
    "POST /api/v1/admin/studios": (r) => {
      const a = answer(r);
      if ((a.status ?? 201) === 201) items.push(a.body as Studio);
      return a;
    },
  });
  return { sent, items };
}

describe("console: studios", () => {
  it("an empty form says what is required with the field's label and sends nothing", async () => {
    const { sent } = studiosApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<StudiosSection isAdmin />);
    await screen.findByText("Yash Raj Films");
    await user.click(screen.getByRole("button", { name: "New studio" }));
    await user.click(screen.getByRole("button", { name: "Create studio" }));

    expect(await screen.findByText("Name is required")).toBeTruthy();
    expect(screen.getByText("Slug is required")).toBeTruthy();
    expect(screen.getByText("Logo URL is required")).toBeTruthy();
    expect(document.activeElement?.getAttribute("name")).toBe("name");
    expect(writes(sent)).toEqual([]);
  });

  it("the shared schema refuses a bad slug before sending, in the API's own words", async () => {
    const { sent } = studiosApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<StudiosSection isAdmin />);
    await user.click(await screen.findByRole("button", { name: "New studio" }));
    await user.type(screen.getByLabelText(/^Name/), "Red Chillies");
    await user.type(screen.getByLabelText(/^Slug/), "Red Chillies!");
    await user.type(screen.getByLabelText(/^Logo URL/), "/media/rc.png");
    await user.click(screen.getByRole("button", { name: "Create studio" }));

    expect(
      await screen.findByText("Slug must be lower-case letters and digits joined by single dashes"),
    ).toBeTruthy();
    expect(document.activeElement?.getAttribute("name")).toBe("slug");
    expect(writes(sent)).toEqual([]);
  });

  it("a valid studio is sent as the endpoint's body, then listed", async () => {
    const { sent } = studiosApi((r) => ({ status: 201, body: { id: 2, ...(r.body as object) } }));
    const user = userEvent.setup();
    renderPage(<StudiosSection isAdmin />);
    await user.click(await screen.findByRole("button", { name: "New studio" }));
    await user.type(screen.getByLabelText(/^Name/), "  Red Chillies ");
    await user.type(screen.getByLabelText(/^Slug/), "red-chillies");
    await user.type(screen.getByLabelText(/^Logo URL/), "/media/rc.png");
    await user.click(screen.getByLabelText(/official partner/));
    await user.click(screen.getByRole("button", { name: "Create studio" }));

    expect(await screen.findByText("Studio created")).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: "POST",
        path: "/api/v1/admin/studios",
        query: expect.anything(),
        body: {
          name: "Red Chillies",
          slug: "red-chillies",
          description: "",
          logoUrl: "/media/rc.png",
          isPartner: true,
        },
      },
    ]);
    // The list is read again after the write and shows the new row; the form is closed.
    await screen.findByText("Red Chillies");
    expect(screen.queryByRole("button", { name: "Create studio" })).toBeNull();
  });

  it("the server's refusal shows on its field and above the form", async () => {
    const { sent } = studiosApi(() =>
      apiError(409, "conflict", "A studio with this slug exists", [{ path: ["slug"], message: "is taken" }]),
    );
    const user = userEvent.setup();
    renderPage(<StudiosSection isAdmin />);
    await user.click(await screen.findByRole("button", { name: "New studio" }));
    await user.type(screen.getByLabelText(/^Name/), "YRF again");
    await user.type(screen.getByLabelText(/^Slug/), "yash-raj-films");
    await user.type(screen.getByLabelText(/^Logo URL/), "/media/y.png");
    await user.click(screen.getByRole("button", { name: "Create studio" }));

    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toContain("A studio with this slug exists");
    expect(screen.getByText("Slug is taken")).toBeTruthy();
    expect(writes(sent)).toHaveLength(1);
    // Nothing was added: the form stays open with what was typed.
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe("YRF again");
  });

  it("a studio account reads the studios but has no New or Edit", async () => {
    studiosApi(() => ({ status: 500 }));
    renderPage(<StudiosSection isAdmin={false} />);
    await screen.findByText("Yash Raj Films");
    expect(screen.queryByRole("button", { name: "New studio" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Edit/ })).toBeNull();
  });
});

describe("console: NFTs", () => {
  it("a price that is not an amount is refused on the Price field; an auction asks for its length", async () => {
    const sent = fakeApi({
      "GET /api/v1/admin/nfts": () => ({ body: { items: [] } }),
      "GET /api/v1/admin/films": () => ({ body: { items: [] } }),
      "GET /api/v1/admin/celebrities": () => ({ body: { items: [] } }),
    });
    const user = userEvent.setup();
    renderPage(<NftsSection />);
    await user.click(await screen.findByRole("button", { name: "New NFT" }));
    expect(screen.queryByLabelText(/^Auction length/)).toBeNull();
    await user.selectOptions(screen.getByLabelText(/^Sale type/), "auction");
    expect(screen.getByLabelText(/^Auction length/)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Price/), "12.345");
    await user.click(screen.getByRole("button", { name: "Create NFT" }));

    await screen.findByText("Auction length (days) is required");
    expect(await screen.findByText("Price (USD) must be an amount like 12.50")).toBeTruthy();
    expect(screen.getByText("Auction length (days) is required")).toBeTruthy();
    expect(writes(sent)).toEqual([]);
  });
});

describe("console: users", () => {
  const fan: AdminUser = {
    id: "0b8f8a43-5a7c-4a34-9b1d-7f8f7b3c1a10",
    name: "Asha",
    email: "asha@example.in",
    role: "user",
    productionHouseId: null,
    emailVerified: true,
    suspended: false,
    createdAt: "2026-11-01T10:00:00.000Z",
  };

  it("Suspend calls the user's suspend endpoint and says so; a refusal is shown, not swallowed", async () => {
    let refuse = false;
    const sent = fakeApi({
      "GET /api/v1/admin/users": () => ({ body: { items: [fan], nextCursor: null } }),
      "GET /api/v1/admin/studios": () => ({ body: { items: [yrf] } }),
      [`POST /api/v1/admin/users/${fan.id}/suspend`]: () =>
        refuse
          ? apiError(403, "forbidden", "You cannot suspend an administrator")
          : { body: { ...fan, suspended: true } },
    });
    const user = userEvent.setup();
    renderPage(<UsersSection />);
    const row = (await screen.findByRole("cell", { name: "asha@example.in" })).closest("tr") as HTMLElement;
    await user.click(within(row).getByRole("button", { name: /Suspend/ }));
    expect(await screen.findByText("asha@example.in suspended")).toBeTruthy();
    expect(writes(sent).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v1/admin/users/${fan.id}/suspend`,
    ]);

    refuse = true;
    await user.click(within(row).getByRole("button", { name: /Suspend/ }));
    expect(await screen.findByText("You cannot suspend an administrator")).toBeTruthy();
  });

  it("choosing a studio role sends the role and the studio's id", async () => {
    const sent = fakeApi({
      "GET /api/v1/admin/users": () => ({ body: { items: [fan], nextCursor: null } }),
      "GET /api/v1/admin/studios": () => ({ body: { items: [yrf] } }),
      [`PUT /api/v1/admin/users/${fan.id}/role`]: (r) => ({ body: { ...fan, ...(r.body as object) } }),
    });
    const user = userEvent.setup();
    renderPage(<UsersSection />);
    await screen.findByRole("option", { name: "Studio: Yash Raj Films" });
    await user.selectOptions(screen.getByLabelText("Role of asha@example.in"), "studio:1");
    await waitFor(() => expect(writes(sent)).toHaveLength(1));
    expect(writes(sent)[0]?.body).toEqual({ role: "studio", productionHouseId: 1 });
  });
});

describe("console: hidden tokens", () => {
  it("hiding a token puts its id in the path and the reason in the body", async () => {
    const sent = fakeApi({
      "GET /api/v1/admin/hidden-tokens": () => ({ body: { items: [] } }),
      "PUT /api/v1/admin/hidden-tokens/42": (r) => ({
        body: { tokenId: "42", ...(r.body as object), createdAt: "2026-11-26T10:00:00.000Z" },
      }),
    });
    const user = userEvent.setup();
    renderPage(<TokensSection />);
    await user.click(await screen.findByRole("button", { name: "Hide a token" }));
    await user.type(screen.getByLabelText(/^Token id/), "4x2");
    await user.click(screen.getByRole("button", { name: "Hide token" }));
    expect(await screen.findByText("Reason is required")).toBeTruthy();
    expect(screen.getByText("Token id must be a whole number")).toBeTruthy();

    await user.clear(screen.getByLabelText(/^Token id/));
    await user.type(screen.getByLabelText(/^Token id/), "42");
    await user.selectOptions(screen.getByLabelText(/^Reason/), "voided");
    await user.type(screen.getByLabelText(/^Note/), "Counterfeit listing");
    await user.click(screen.getByRole("button", { name: "Hide token" }));
    expect(await screen.findByText("Token 42 hidden")).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: "PUT",
        path: "/api/v1/admin/hidden-tokens/42",
        query: expect.anything(),
        body: { reason: "voided", note: "Counterfeit listing" },
      },
    ]);
  });
});
