// @vitest-environment happy-dom
// The console's Chain section (issue 25): where token URIs point, and the exit to IPFS: the root CID
// checked by the packages/api schema before anything is sent, a confirm step naming ipfs://<cid>/…,
// the result (transaction, new base URI), and the server's refusals on the field.
import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { apiError, fakeApi, renderPage, type SentRequest } from "../../test/fake-api.tsx";
import { ChainSection } from "./chain.tsx";

afterEach(cleanup);

const ROOT = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
const COLLECTIBLE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TX = `0x${"ab".repeat(32)}`;
const writes = (sent: SentRequest[]) => sent.filter((r) => r.method !== "GET");

function chainApi(exit: (r: SentRequest) => { status?: number; body?: unknown }) {
  let baseUri = "http://localhost:3000/api/v1/metadata/";
  return fakeApi({
    "GET /api/v1/admin/chain/metadata": () => ({
      body: { collectible: COLLECTIBLE, baseUri, onIpfs: baseUri.startsWith("ipfs://") },
    }),
    "POST /api/v1/admin/chain/ipfs-exit": (r) => {
      const a = exit(r);
      if ((a.status ?? 200) === 200) baseUri = `ipfs://${ROOT}/metadata/`;
      return a;
    },
  });
}

async function openForm(user: ReturnType<typeof userEvent.setup>) {
  renderPage(<ChainSection />);
  expect(await screen.findByText("http://localhost:3000/api/v1/metadata/")).toBeTruthy();
  await user.click(screen.getByRole("button", { name: "Exit to IPFS" }));
}

describe("console: exit to IPFS", () => {
  it("refuses what is not a root CID before sending, on the field", async () => {
    const sent = chainApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    await openForm(user);
    await user.type(screen.getByLabelText(/^Root CID/), "not-a-cid");
    await user.click(screen.getByRole("button", { name: "Point metadata at IPFS" }));
    expect(await screen.findByText("Enter the root CID the export printed (bafy…)")).toBeTruthy();
    expect(document.activeElement?.getAttribute("name")).toBe("rootCid");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(writes(sent)).toEqual([]);
  });

  it("asks first, naming ipfs://<cid>/…; cancelling sends nothing; confirming sends the CID and shows the result", async () => {
    const sent = chainApi(() => ({
      body: { rootCid: ROOT, baseUri: `ipfs://${ROOT}/metadata/`, txHash: TX, batchMetadataUpdate: true },
    }));
    const user = userEvent.setup();
    await openForm(user);
    await user.type(screen.getByLabelText(/^Root CID/), `  ${ROOT} `);
    await user.click(screen.getByRole("button", { name: "Point metadata at IPFS" }));

    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain(`ipfs://${ROOT}/metadata/…`);
    expect(dialog.textContent).toMatch(/Are you sure\?/);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(writes(sent)).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Point metadata at IPFS" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Yes, point metadata at IPFS" }),
    );
    const result = await screen.findByTestId("exit-result");
    expect(result.textContent).toContain(TX);
    expect(result.textContent).toContain(`ipfs://${ROOT}/metadata/`);
    expect(result.textContent).toMatch(/BatchMetadataUpdate/);
    expect(writes(sent)).toEqual([
      {
        method: "POST",
        path: "/api/v1/admin/chain/ipfs-exit",
        query: expect.anything(),
        body: { rootCid: ROOT },
      },
    ]);
    // The status is read again: it now says IPFS.
    expect(await screen.findByText("IPFS (the exit is done)")).toBeTruthy();
  });

  it("shows the server's refusal on the field, and the multisig's call when the server lacks the admin key", async () => {
    let answer = apiError(400, "validation_failed", "This CID is not a directory (dag-pb)", [
      {
        field: "rootCid",
        message: "This CID is not a directory (dag-pb): give the root CID the export printed",
      },
    ]);
    const sent = chainApi(() => answer);
    const user = userEvent.setup();
    await openForm(user);
    await user.type(screen.getByLabelText(/^Root CID/), ROOT);
    const submit = async () => {
      await user.click(screen.getByRole("button", { name: "Point metadata at IPFS" }));
      await user.click(
        within(await screen.findByRole("dialog")).getByRole("button", {
          name: "Yes, point metadata at IPFS",
        }),
      );
    };
    await submit();
    expect(
      await screen.findByText("This CID is not a directory (dag-pb): give the root CID the export printed"),
    ).toBeTruthy();
    expect(screen.getByLabelText(/^Root CID/).getAttribute("aria-invalid")).toBe("true");

    answer = apiError(409, "conflict", "This server does not hold the collectible's admin key", {
      to: COLLECTIBLE,
      data: "0x55f804b3",
      admin: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      baseUri: `ipfs://${ROOT}/metadata/`,
    });
    await submit();
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toContain(
      "This server does not hold the collectible's admin key",
    );
    expect(screen.getByRole("note").textContent).toContain("0x55f804b3");
    expect(writes(sent)).toHaveLength(2);
    expect(screen.queryByTestId("exit-result")).toBeNull();
  });
});
