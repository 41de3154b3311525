// The console's sections: catalogue editors (studios, celebrities, films, NFTs, posts), users,
// hidden tokens, the inbox, the newsletter export and the audit log.
import { tierLabels, tiers } from "@diginoor/api/catalogue";
import { formatPrice } from "@diginoor/api/money";
import type { AdminOrder, OrderState } from "@diginoor/api/orders";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../ui/Button.tsx";
import { useRates } from "../../lib/rates.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Price } from "../../ui/Price.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import {
  type AdminUser,
  type AuditEntry,
  type BodyOf,
  bodySchemaOf,
  type ContactMessage,
  type HiddenToken,
  consoleActions,
  hideTokenFormSchema,
  type CollectionName,
  type ItemOf,
  save,
  useAdminList,
  useCollectionList,
  useAdminPage,
  useAdminWrite,
  useConsoleMe,
} from "./api.ts";
import {
  AdminTable,
  type Column,
  EntityForm,
  type FieldSpec,
  SectionHead,
  type FieldValue,
  type Values,
  centsOf,
  dollarsOf,
  intOf,
  textOf,
} from "./components.tsx";

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-IN", { dateStyle: "medium", timeStyle: "short" });
const usd = (cents: number) => `$${dollarsOf(cents)}`;

interface CrudConfig<K extends CollectionName, T = ItemOf<K>> {
  /** API collection name (/api/v1/admin/<what>); its endpoints type the rows. */
  what: K;
  title: string;
  noun: string;
  columns: Column<T>[];
  fields: FieldSpec[];
  empty: Values;
  idOf: (row: T) => string | number;
  toValues: (row: T) => Values;
  /** The request body the form's values make; checked against the endpoint's schema before sending. */
  toBody: (values: Values, isNew: boolean) => unknown;
  /** Body key → the field that shows its messages, where the names differ. */
  fieldOf?: Record<string, string>;
  /** Studio accounts may read but not write (celebrities). */
  readOnly?: boolean;
}

/** A list with a create/edit form above it; every save is audited and shown on the public pages at once. */
function CrudSection<K extends CollectionName>({ config: c }: { config: CrudConfig<K> }) {
  type T = ItemOf<K>;
  const list = useCollectionList(c.what);
  const toast = useToast();
  const [editing, setEditing] = useState<{ row: T | null } | null>(null);
  const write = useAdminWrite(({ id, body }: { id: string | number | null; body: BodyOf<K> }) =>
    save(c.what, id, body),
  );
  const close = () => {
    setEditing(null);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(".admin-section-head h2")?.focus());
  };
  const columns: Column<T>[] = c.readOnly
    ? c.columns
    : [
        ...c.columns,
        {
          label: "Actions",
          render: (row) => (
            <Button size="sm" variant="secondary" onClick={() => setEditing({ row })}>
              Edit<span className="visually-hidden"> {String(c.idOf(row))}</span>
            </Button>
          ),
        },
      ];
  return (
    <section aria-label={c.title}>
      <SectionHead
        title={c.title}
        action={
          c.readOnly || editing ? null : (
            <Button size="sm" onClick={() => setEditing({ row: null })}>
              New {c.noun}
            </Button>
          )
        }
      />
      {editing ? (
        <EntityForm
          key={editing.row ? String(c.idOf(editing.row)) : "new"}
          title={editing.row ? `Edit ${c.noun}` : `New ${c.noun}`}
          fields={c.fields}
          initial={editing.row ? c.toValues(editing.row) : c.empty}
          submitLabel={editing.row ? "Save changes" : `Create ${c.noun}`}
          schema={bodySchemaOf(c.what, !editing.row)}
          toBody={(values) => c.toBody(values, !editing.row)}
          fieldOf={c.fieldOf}
          onCancel={close}
          onSubmit={async (body) => {
            await write.mutateAsync({
              id: editing.row ? c.idOf(editing.row) : null,
              // The form's schema accepted it: it is the endpoint's body.
              body: body as BodyOf<K>,
            });
            toast.success(
              editing.row
                ? `${c.noun[0]?.toUpperCase()}${c.noun.slice(1)} saved`
                : `${c.noun[0]?.toUpperCase()}${c.noun.slice(1)} created`,
            );
            close();
          }}
        />
      ) : null}
      <AdminTable
        caption={c.title}
        columns={columns}
        query={list}
        rowKey={c.idOf}
        empty={`Create the first ${c.noun} with "New ${c.noun}".`}
      />
    </section>
  );
}

const slugHint = "Lower-case letters and digits joined by dashes; it becomes the page address.";

// ---- studios

export function StudiosSection({ isAdmin }: { isAdmin: boolean }) {
  return (
    <CrudSection<"studios">
      config={{
        what: "studios",
        title: "Studios",
        noun: "studio",
        readOnly: !isAdmin,
        idOf: (s) => s.id,
        columns: [
          { label: "Name", render: (s) => s.name, primary: true },
          { label: "Slug", render: (s) => <code>{s.slug}</code> },
          { label: "Partner", render: (s) => (s.isPartner ? "Yes" : "No") },
        ],
        fields: [
          { name: "name", label: "Name", required: true },
          { name: "slug", label: "Slug", required: true, hint: slugHint },
          { name: "description", label: "Description", kind: "textarea" },
          { name: "logo", label: "Logo", kind: "image", purpose: "studio", fills: { logo: "logoUrl" } },
          { name: "logoUrl", label: "Logo URL", required: true, hint: "Filled by the upload above." },
          { name: "isPartner", label: "Show as an official partner on the about page", kind: "checkbox" },
        ],
        empty: { name: "", slug: "", description: "", logoUrl: "", isPartner: false },
        toValues: (s) => ({ ...s, logo: s.logoUrl }),
        toBody: (v) => ({
          name: textOf(v.name),
          slug: textOf(v.slug),
          description: textOf(v.description),
          logoUrl: textOf(v.logoUrl),
          isPartner: v.isPartner === true,
        }),
      }}
    />
  );
}

// ---- celebrities

export function CelebritiesSection({ isAdmin }: { isAdmin: boolean }) {
  return (
    <CrudSection<"celebrities">
      config={{
        what: "celebrities",
        title: "Celebrities",
        noun: "celebrity",
        readOnly: !isAdmin,
        idOf: (c) => c.id,
        columns: [
          { label: "Name", render: (c) => c.name, primary: true },
          { label: "Slug", render: (c) => <code>{c.slug}</code> },
        ],
        fields: [
          { name: "name", label: "Name", required: true },
          { name: "slug", label: "Slug", required: true, hint: slugHint },
          { name: "bio", label: "Biography", kind: "textarea" },
        ],
        empty: { name: "", slug: "", bio: "" },
        toValues: (c) => ({ ...c }),
        toBody: (v) => ({ name: textOf(v.name), slug: textOf(v.slug), bio: textOf(v.bio) }),
      }}
    />
  );
}

// ---- films

export function FilmsSection({ isAdmin }: { isAdmin: boolean }) {
  const houses = useAdminList("studios");
  const houseName = (id: number | null) => houses.data?.items.find((h) => h.id === id)?.name ?? "—";
  return (
    <CrudSection<"films">
      config={{
        what: "films",
        title: "Films",
        noun: "film",
        idOf: (f) => f.id,
        columns: [
          {
            label: "Film",
            primary: true,
            render: (f) => (
              <span className="admin-media-cell">
                <img src={f.thumbnailUrl} alt="" width={40} height={40} />
                {f.name}
              </span>
            ),
          },
          { label: "Studio", render: (f) => houseName(f.productionHouseId) },
          { label: "Year", render: (f) => f.releaseYear ?? "—" },
          { label: "Page", render: (f) => <Link to={f.href}>{f.href}</Link> },
        ],
        fields: [
          { name: "name", label: "Name", required: true },
          { name: "slug", label: "Slug", required: true, hint: slugHint },
          { name: "tagline", label: "Tagline" },
          { name: "releaseYear", label: "Release year", kind: "number" },
          ...(isAdmin
            ? [
                {
                  name: "productionHouseId",
                  label: "Studio",
                  kind: "select" as const,
                  options: (houses.data?.items ?? []).map((h) => ({ value: String(h.id), label: h.name })),
                },
              ]
            : []),
          { name: "description", label: "Description", kind: "textarea" },
          {
            name: "poster",
            label: "Poster",
            kind: "image",
            purpose: "film",
            fills: { poster: "posterUrl", banner: "bannerUrl", thumbnail: "thumbnailUrl" },
            hint: "JPEG or PNG, up to 5 MB: the poster, banner and thumbnail are cut from it.",
          },
          { name: "posterUrl", label: "Poster URL", required: true },
          { name: "bannerUrl", label: "Banner URL", required: true },
          { name: "thumbnailUrl", label: "Thumbnail URL", required: true },
          { name: "note", label: "Note shown on the film page", kind: "textarea" },
        ],
        empty: {
          name: "",
          slug: "",
          tagline: "",
          releaseYear: "",
          productionHouseId: "",
          description: "",
          posterUrl: "",
          bannerUrl: "",
          thumbnailUrl: "",
          note: "",
        },
        toValues: (f) => ({
          ...f,
          poster: f.posterUrl,
          releaseYear: f.releaseYear === null ? "" : String(f.releaseYear),
          productionHouseId: f.productionHouseId === null ? "" : String(f.productionHouseId),
          note: f.note ?? "",
        }),
        toBody: (v) => ({
          name: textOf(v.name),
          slug: textOf(v.slug),
          tagline: textOf(v.tagline),
          releaseYear: intOf(v.releaseYear),
          ...(isAdmin ? { productionHouseId: intOf(v.productionHouseId) } : {}),
          description: textOf(v.description),
          posterUrl: textOf(v.posterUrl),
          bannerUrl: textOf(v.bannerUrl),
          thumbnailUrl: textOf(v.thumbnailUrl),
          note: textOf(v.note) || null,
        }),
      }}
    />
  );
}

// ---- NFTs

export function NftsSection() {
  const films = useAdminList("films");
  const stars = useAdminList("celebrities");
  const filmName = (id: number) => films.data?.items.find((f) => f.id === id)?.name ?? "—";
  const isAuction = (v: Values) => v.saleType === "auction";
  return (
    <CrudSection<"nfts">
      config={{
        what: "nfts",
        title: "NFTs",
        noun: "NFT",
        idOf: (n) => n.id,
        columns: [
          {
            label: "NFT",
            primary: true,
            render: (n) => (
              <span className="admin-media-cell">
                <img src={n.thumbnailUrl} alt="" width={40} height={40} />
                <Link to={`/nftdetail/${n.id}`}>{n.title}</Link>
              </span>
            ),
          },
          { label: "Film", render: (n) => filmName(n.filmId) },
          { label: "Tier", render: (n) => tierLabels[n.tier] },
          {
            label: "Sale",
            render: (n) =>
              n.saleType === "auction"
                ? `Auction, reserve ${usd(n.priceUsdCents)}, ${n.auctionDurationDays} d`
                : `Fixed, ${usd(n.priceUsdCents)}`,
          },
          { label: "Editions", render: (n) => `${n.editionsAvailable} of ${n.editionSize} left` },
        ],
        fields: [
          { name: "title", label: "Title", required: true },
          { name: "category", label: "Category", required: true, hint: "e.g. Scene, Poster, Song" },
          {
            name: "filmId",
            label: "Film",
            kind: "select",
            required: true,
            options: (films.data?.items ?? []).map((f) => ({ value: String(f.id), label: f.name })),
          },
          {
            name: "celebrityId",
            label: "Celebrity",
            kind: "select",
            required: true,
            options: (stars.data?.items ?? []).map((s) => ({ value: String(s.id), label: s.name })),
          },
          {
            name: "tier",
            label: "Tier",
            kind: "select",
            required: true,
            options: tiers.map((t) => ({ value: t, label: tierLabels[t] })),
          },
          {
            name: "saleType",
            label: "Sale type",
            kind: "select",
            required: true,
            options: [
              { value: "fixed", label: "Fixed price" },
              { value: "auction", label: "Auction" },
            ],
          },
          {
            name: "price",
            label: "Price (USD)",
            kind: "money",
            required: true,
            hint: "For auctions: the reserve.",
          },
          {
            name: "auctionDurationDays",
            label: "Auction length (days)",
            kind: "number",
            required: true,
            when: isAuction,
            hint: "1 to 60 days, counted from the auction's opening.",
          },
          { name: "editionSize", label: "Edition size", kind: "number", required: true },
          { name: "royaltyBps", label: "Royalty (basis points)", kind: "number", hint: "1000 = 10%" },
          {
            name: "media",
            label: "Artwork",
            kind: "image",
            purpose: "nft",
            fills: { image: "imageUrl", thumbnail: "thumbnailUrl" },
          },
          { name: "imageUrl", label: "Image URL", required: true },
          { name: "thumbnailUrl", label: "Thumbnail URL", required: true },
          { name: "description", label: "Description", kind: "textarea" },
          { name: "about", label: "About", kind: "textarea" },
          { name: "exclusiveRewards", label: "Exclusive rewards", kind: "textarea" },
        ],
        empty: {
          title: "",
          category: "",
          filmId: "",
          celebrityId: "",
          tier: "",
          saleType: "fixed",
          price: "",
          auctionDurationDays: "",
          editionSize: "1",
          royaltyBps: "1000",
          imageUrl: "",
          thumbnailUrl: "",
          description: "",
          about: "",
          exclusiveRewards: "",
        },
        toValues: (n) => ({
          ...n,
          media: n.imageUrl,
          filmId: String(n.filmId),
          celebrityId: String(n.celebrityId),
          price: dollarsOf(n.priceUsdCents),
          auctionDurationDays: n.auctionDurationDays === null ? "" : String(n.auctionDurationDays),
          editionSize: String(n.editionSize),
          royaltyBps: String(n.royaltyBps),
        }),
        fieldOf: { priceUsdCents: "price" },
        toBody: (v) => ({
          title: textOf(v.title),
          category: textOf(v.category),
          filmId: intOf(v.filmId),
          celebrityId: intOf(v.celebrityId),
          tier: v.tier,
          saleType: v.saleType,
          priceUsdCents: centsOf(v.price),
          auctionDurationDays: isAuction(v) ? intOf(v.auctionDurationDays) : null,
          editionSize: intOf(v.editionSize),
          royaltyBps: intOf(v.royaltyBps) ?? 1000,
          imageUrl: textOf(v.imageUrl),
          thumbnailUrl: textOf(v.thumbnailUrl),
          description: textOf(v.description),
          about: textOf(v.about),
          exclusiveRewards: textOf(v.exclusiveRewards),
        }),
      }}
    />
  );
}

// ---- posts

export function PostsSection() {
  return (
    <CrudSection<"posts">
      config={{
        what: "posts",
        title: "Posts",
        noun: "post",
        idOf: (p) => p.slug,
        columns: [
          { label: "Title", render: (p) => <Link to={`/blog/${p.slug}`}>{p.title}</Link>, primary: true },
          { label: "Author", render: (p) => p.author },
          { label: "Published", render: (p) => dateTime(p.publishedAt) },
          { label: "Featured", render: (p) => (p.featured ? "Yes" : "No") },
        ],
        fields: [
          { name: "title", label: "Title", required: true },
          { name: "slug", label: "Slug", required: true, hint: slugHint },
          {
            name: "excerpt",
            label: "Excerpt",
            kind: "textarea",
            hint: "One or two sentences for lists and previews.",
          },
          {
            name: "markdown",
            label: "Body (Markdown)",
            kind: "textarea",
            required: true,
            hint: "Markdown; scripts, event handlers and unsafe links are removed when it is saved.",
          },
          {
            name: "cover",
            label: "Cover image",
            kind: "image",
            purpose: "post",
            fills: { cover: "coverImageUrl" },
          },
          { name: "coverImageUrl", label: "Cover image URL" },
          { name: "featured", label: "Feature in the blog's carousel", kind: "checkbox" },
        ],
        empty: { title: "", slug: "", excerpt: "", markdown: "", coverImageUrl: "", featured: false },
        toValues: (p) => ({ ...p, cover: p.coverImageUrl ?? "", coverImageUrl: p.coverImageUrl ?? "" }),
        toBody: (v, isNew) => ({
          title: textOf(v.title),
          ...(isNew ? { slug: textOf(v.slug) } : {}),
          excerpt: textOf(v.excerpt),
          markdown: String(v.markdown ?? ""),
          coverImageUrl: textOf(v.coverImageUrl) || null,
          featured: v.featured === true,
        }),
      }}
    />
  );
}

// ---- lotteries (decision 161): editable until they open; the seed's hash is public from creation

/** A datetime-local value (the browser's local time) from an ISO time, and back. */
const localInput = (iso: string) => {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const isoOf = (v: FieldValue | undefined) => (v ? new Date(String(v)).toISOString() : "");

const PRIZE_STATES: Record<string, string> = {
  awaiting_wallet: "Waiting for the winner's wallet",
  minting: "Minting to the winner",
  minted: "Minted to the winner",
  owed: "Owed to the winner",
  paid: "Paid",
};

/** A lottery's prize and, once drawn, where it is; an owed pool can be marked paid (administrators). */
function LotteryPrize({ l, canPay }: { l: ItemOf<"lotteries">; canPay: boolean }) {
  const toast = useToast();
  const pay = useAdminWrite((reference: string) => consoleActions.payLotteryPrize(l.id, reference));
  const rates = useRates();
  // A prize pool reads rupees first like every price (the prompt is plain text: the same format).
  const what =
    l.prize.kind === "pool"
      ? formatPrice({ usdCents: l.prize.amountCents }, rates.data)
      : (l.prizeNft?.title ?? l.prize.nftId);
  const d = l.prizeDelivery;
  const onPay = async () => {
    const reference = window.prompt(
      `Record that ${what} was paid to the winner of ${l.name}. The payment's reference (bank transfer or payout id):`,
    );
    if (!reference?.trim()) return;
    try {
      await pay.mutateAsync(reference.trim());
      toast.success("The prize is recorded as paid");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    }
  };
  return (
    <span className="admin-prize">
      {l.prize.kind === "pool" ? <Price usdCents={l.prize.amountCents} /> : what}
      {d ? <span className="admin-muted"> · {PRIZE_STATES[d.state]}</span> : null}
      {d?.state === "owed" && canPay ? (
        <>
          {" "}
          <Button variant="secondary" size="sm" loading={pay.isPending} onClick={onPay}>
            Mark prize paid
          </Button>
        </>
      ) : null}
    </span>
  );
}

export function LotteriesSection() {
  const nfts = useAdminList("nfts");
  const isAdmin = useConsoleMe(true).data?.role === "admin";
  const isNftPrize = (v: Values) => v.prizeKind === "nft";
  return (
    <CrudSection<"lotteries">
      config={{
        what: "lotteries",
        title: "Lotteries",
        noun: "lottery",
        idOf: (l) => l.id,
        columns: [
          { label: "Lottery", primary: true, render: (l) => <Link to={`/lottery/${l.id}`}>{l.name}</Link> },
          { label: "State", render: (l) => l.state.replace("_", " ") },
          { label: "Tickets", render: (l) => `${l.ticketsSold} of ${l.minTickets} · ${l.players} players` },
          { label: "Ticket", render: (l) => usd(l.ticketPriceCents) },
          { label: "Closes", render: (l) => dateTime(l.closesAt) },
          { label: "Prize", render: (l) => <LotteryPrize l={l} canPay={isAdmin} /> },
        ],
        fields: [
          { name: "name", label: "Name", required: true },
          {
            name: "price",
            label: "Ticket price (USD)",
            kind: "money",
            required: true,
            hint: "Rupee payments are converted at the stored rate.",
          },
          { name: "minTickets", label: "Minimum tickets to activate", kind: "number", required: true },
          {
            name: "maxTicketsPerUser",
            label: "Tickets per player (cap)",
            kind: "number",
            hint: "Empty: no cap.",
          },
          { name: "opensAt", label: "Opens", kind: "datetime", required: true },
          { name: "closesAt", label: "Closes", kind: "datetime", required: true },
          {
            name: "prizeKind",
            label: "Prize",
            kind: "select",
            required: true,
            options: [
              { value: "nft", label: "One edition of a catalogue NFT" },
              { value: "pool", label: "A prize pool" },
            ],
          },
          {
            name: "prizeNftId",
            label: "Prize NFT",
            kind: "select",
            required: true,
            when: isNftPrize,
            options: (nfts.data?.items ?? []).map((n) => ({ value: n.id, label: n.title })),
          },
          {
            name: "prizePool",
            label: "Prize pool (USD)",
            kind: "money",
            required: true,
            when: (v) => !isNftPrize(v),
          },
          { name: "media", label: "Image", kind: "image", purpose: "nft", fills: { image: "image" } },
          { name: "image", label: "Image URL" },
          { name: "rules", label: "Rules", kind: "textarea" },
        ],
        empty: {
          name: "",
          price: "",
          minTickets: "100",
          maxTicketsPerUser: "",
          opensAt: "",
          closesAt: "",
          prizeKind: "nft",
          prizeNftId: "",
          prizePool: "",
          image: "",
          rules: "",
        },
        toValues: (l) => ({
          name: l.name,
          price: dollarsOf(l.ticketPriceCents),
          minTickets: String(l.minTickets),
          maxTicketsPerUser: l.maxTicketsPerUser === null ? "" : String(l.maxTicketsPerUser),
          opensAt: localInput(l.opensAt),
          closesAt: localInput(l.closesAt),
          prizeKind: l.prize.kind,
          prizeNftId: l.prize.kind === "nft" ? l.prize.nftId : "",
          prizePool: l.prize.kind === "pool" ? dollarsOf(l.prize.amountCents) : "",
          media: l.imageUrl ?? "",
          image: l.imageUrl ?? "",
          rules: l.rules,
        }),
        fieldOf: {
          ticketPriceCents: "price",
          "prize.amountCents": "prizePool",
          "prize.nftId": "prizeNftId",
        },
        toBody: (v, isNew) => {
          const image = textOf(v.image);
          const cap = intOf(v.maxTicketsPerUser);
          return {
            name: textOf(v.name),
            ticketPriceCents: centsOf(v.price),
            minTickets: intOf(v.minTickets),
            opensAt: isoOf(v.opensAt),
            closesAt: isoOf(v.closesAt),
            ...(cap === null ? (isNew ? {} : { maxTicketsPerUser: null }) : { maxTicketsPerUser: cap }),
            prize:
              v.prizeKind === "nft"
                ? { kind: "nft", nftId: textOf(v.prizeNftId) }
                : { kind: "pool", amountCents: centsOf(v.prizePool) },
            ...(image ? { image } : isNew ? {} : { image: null }),
            rules: String(v.rules ?? ""),
          };
        },
      }}
    />
  );
}

// ---- users

export function UsersSection() {
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const users = useAdminPage("users", search ? { q: search } : undefined);
  const houses = useAdminList("studios");
  const toast = useToast();
  const act = useAdminWrite(({ id, suspend }: { id: string; suspend: boolean }) =>
    consoleActions.suspendUser(id, suspend),
  );
  const role = useAdminWrite(({ id, value }: { id: string; value: string }) => {
    const [r, house] = value.split(":");
    return consoleActions.setUserRole(id, {
      role: r as AdminUser["role"],
      productionHouseId: house ? Number(house) : null,
    });
  });
  const run = async (p: Promise<AdminUser>, done: string) => {
    try {
      await p;
      toast.success(done);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    }
  };
  return (
    <section aria-label="Users">
      <SectionHead title="Users" />
      <search>
        <form
          className="admin-search"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(q.trim());
          }}
        >
          <TextField
            label="Search by name or email"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            name="q"
          />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
      </search>
      <AdminTable<AdminUser>
        caption="Users"
        query={users}
        rowKey={(u) => u.id}
        empty="No account matches this search."
        columns={[
          { label: "Name", render: (u) => u.name, primary: true },
          { label: "Email", render: (u) => u.email },
          {
            label: "Role",
            render: (u) => (
              <select
                aria-label={`Role of ${u.email}`}
                className="select admin-inline-select"
                value={u.role === "studio" ? `studio:${u.productionHouseId}` : u.role}
                onChange={(e) =>
                  run(role.mutateAsync({ id: u.id, value: e.target.value }), `${u.email}'s role changed`)
                }
              >
                <option value="user">User</option>
                <option value="admin">Administrator</option>
                {(houses.data?.items ?? []).map((h) => (
                  <option key={h.id} value={`studio:${h.id}`}>
                    Studio: {h.name}
                  </option>
                ))}
              </select>
            ),
          },
          {
            label: "Status",
            render: (u) => (u.suspended ? "Suspended" : u.emailVerified ? "Active" : "Unverified"),
          },
          { label: "Joined", render: (u) => dateTime(u.createdAt) },
          {
            label: "Actions",
            render: (u) => (
              <Button
                size="sm"
                variant="secondary"
                onClick={() =>
                  run(
                    act.mutateAsync({ id: u.id, suspend: !u.suspended }),
                    u.suspended ? `${u.email} reinstated` : `${u.email} suspended`,
                  )
                }
              >
                {u.suspended ? "Unsuspend" : "Suspend"}
                <span className="visually-hidden"> {u.email}</span>
              </Button>
            ),
          },
        ]}
      />
    </section>
  );
}

// ---- tokens hidden from our marketplace

type HideReason = HiddenToken["reason"];

export function TokensSection() {
  const list = useAdminList("hidden-tokens");
  const toast = useToast();
  const hide = useAdminWrite(
    ({ tokenId, reason, note }: { tokenId: string; reason: HideReason; note: string }) =>
      consoleActions.hideToken(tokenId, { reason, note }),
  );
  const unhide = useAdminWrite(consoleActions.unhideToken);
  const [open, setOpen] = useState(false);
  return (
    <section aria-label="Hidden tokens">
      <SectionHead
        title="Hidden tokens"
        action={
          open ? null : (
            <Button size="sm" onClick={() => setOpen(true)}>
              Hide a token
            </Button>
          )
        }
      />
      <p className="muted admin-lead">
        Under the terms we may suspend a token or void its sale: a hidden token stays on chain but is no
        longer offered on our marketplace.
      </p>
      {open ? (
        <EntityForm
          title="Hide a token"
          fields={[
            { name: "tokenId", label: "Token id", required: true, kind: "number" },
            {
              name: "reason",
              label: "Reason",
              kind: "select",
              required: true,
              options: [
                { value: "suspended", label: "Suspended (under review)" },
                { value: "voided", label: "Voided (prohibited activity)" },
              ],
            },
            { name: "note", label: "Note", kind: "textarea" },
          ]}
          initial={{ tokenId: "", reason: "", note: "" }}
          submitLabel="Hide token"
          schema={hideTokenFormSchema}
          toBody={(v) => ({ tokenId: textOf(v.tokenId), reason: v.reason, note: textOf(v.note) })}
          onCancel={() => setOpen(false)}
          onSubmit={async (body) => {
            // The form's schema accepted it.
            const input = body as { tokenId: string; reason: HideReason; note: string };
            await hide.mutateAsync(input);
            toast.success(`Token ${input.tokenId} hidden`);
            setOpen(false);
          }}
        />
      ) : null}
      <AdminTable<HiddenToken>
        caption="Hidden tokens"
        query={list}
        rowKey={(t) => t.tokenId}
        empty="Every token is shown on the marketplace."
        columns={[
          { label: "Token", render: (t) => `#${t.tokenId}`, primary: true },
          { label: "Reason", render: (t) => (t.reason === "voided" ? "Voided" : "Suspended") },
          { label: "Note", render: (t) => t.note || "—" },
          { label: "Since", render: (t) => dateTime(t.createdAt) },
          {
            label: "Actions",
            render: (t) => (
              <Button
                size="sm"
                variant="secondary"
                onClick={async () => {
                  await unhide.mutateAsync(t.tokenId);
                  toast.success(`Token ${t.tokenId} shown again`);
                }}
              >
                Show again<span className="visually-hidden"> token {t.tokenId}</span>
              </Button>
            ),
          },
        ]}
      />
    </section>
  );
}

// ---- inbox, newsletter, audit log, orders

export function InboxSection() {
  const inbox = useAdminPage("contact-messages");
  return (
    <section aria-label="Inbox">
      <SectionHead title="Inbox" />
      <AdminTable<ContactMessage>
        caption="Contact messages"
        query={inbox}
        rowKey={(m) => m.id}
        empty="Messages sent through the contact page arrive here."
        columns={[
          { label: "From", render: (m) => m.name, primary: true },
          { label: "Email", render: (m) => <a href={`mailto:${m.email}`}>{m.email}</a> },
          { label: "Message", render: (m) => <span className="admin-message">{m.message}</span> },
          { label: "Received", render: (m) => dateTime(m.createdAt) },
        ]}
      />
    </section>
  );
}

export function NewsletterSection() {
  return (
    <section aria-label="Newsletter">
      <SectionHead title="Newsletter" />
      <EmptyState
        title="Export the subscribers"
        action={
          <a className="btn btn-primary" href="/api/v1/admin/newsletter.csv" download>
            Download CSV
          </a>
        }
      >
        One line per address with the date it subscribed. Each export is recorded in the audit log.
      </EmptyState>
    </section>
  );
}

export function AuditSection() {
  const [before, setBefore] = useState<string | null>(null);
  const log = useAdminPage("audit-log", before ? { before } : undefined);
  return (
    <section aria-label="Audit log">
      <SectionHead title="Audit log" />
      <AdminTable<AuditEntry>
        caption="Audit log"
        query={log}
        rowKey={(e) => e.id}
        empty="Every change made in the console is recorded here."
        columns={[
          { label: "When", render: (e) => dateTime(e.createdAt), primary: true },
          { label: "Who", render: (e) => `${e.actorEmail} (${e.actorRole})` },
          { label: "What", render: (e) => <code>{e.action}</code> },
          { label: "Subject", render: (e) => `${e.subjectType} ${e.subjectId}` },
          {
            label: "Change",
            render: (e) => (
              <details className="admin-diff">
                <summary>Before and after</summary>
                <pre>{JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre>
              </details>
            ),
          },
        ]}
      />
      <div className="admin-pager">
        {before ? (
          <Button variant="ghost" size="sm" onClick={() => setBefore(null)}>
            Newest
          </Button>
        ) : null}
        {log.data?.nextCursor ? (
          <Button variant="secondary" size="sm" onClick={() => setBefore(log.data?.nextCursor ?? null)}>
            Older entries
          </Button>
        ) : null}
      </div>
    </section>
  );
}

const orderStates = [
  "awaiting_payment",
  "minting",
  "paid",
  "fulfilled",
  "expired",
  "cancelled",
  "failed",
  "refund_pending",
  "refunded",
  "refund_failed",
] as const;
const stateLabel = (s: string) => s.replaceAll("_", " ");

/** Every user's orders (newest 100), filterable by state, each with its state history. */
export function OrdersSection() {
  const [state, setState] = useState<OrderState | "">("");
  const orders = useAdminPage("orders", state ? { state } : undefined);
  const toast = useToast();
  const retry = useAdminWrite((orderId: string) => consoleActions.retryFulfilment(orderId));
  const onRetry = async (orderId: string) => {
    try {
      const r = await retry.mutateAsync(orderId);
      toast.success(r.queued ? "The mint is queued again" : "The mint was already queued");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    }
  };
  const refund = useAdminWrite((orderId: string) => consoleActions.refundOrder(orderId));
  const onRefund = async (o: AdminOrder) => {
    const what =
      o.state === "refund_failed" ? "Try this refund again" : `Refund ${o.nftTitle} #${o.edition} in full`;
    // The token already minted stays with the buyer (decision 144).
    if (!window.confirm(`${what}? The token stays in the buyer's wallet.`)) return;
    try {
      await refund.mutateAsync(o.orderId);
      toast.success("The refund is on its way to the payment provider");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    }
  };
  return (
    <section aria-label="Orders">
      <SectionHead title="Orders" />
      <div className="admin-filters">
        <label>
          State{" "}
          <select value={state} onChange={(e) => setState(e.target.value as OrderState | "")}>
            <option value="">All states</option>
            {orderStates.map((s) => (
              <option key={s} value={s}>
                {stateLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AdminTable<AdminOrder>
        caption="Orders"
        query={orders}
        rowKey={(o) => o.orderId}
        empty="No orders yet. Every purchase attempt, whatever its payment, is listed here."
        columns={[
          { label: "Placed", render: (o) => dateTime(o.createdAt), primary: true },
          {
            label: "NFT",
            render: (o) => (
              <Link to={`/nftdetail/${o.nftId}`}>
                {o.nftTitle} #{o.edition}
              </Link>
            ),
          },
          { label: "Payment", render: (o) => `${o.provider} · ${usd(o.usdCents)}` },
          {
            label: "State",
            render: (o) => (
              <span className={`admin-state admin-state-${o.state}`}>{stateLabel(o.state)}</span>
            ),
          },
          { label: "Wallet", render: (o) => (o.buyerAddress ? <code>{o.buyerAddress}</code> : "—") },
          {
            label: "Actions",
            render: (o) =>
              o.provider !== "wallet" && (o.state === "paid" || o.state === "minting") ? (
                <Button
                  variant="secondary"
                  size="sm"
                  loading={retry.isPending}
                  onClick={() => onRetry(o.orderId)}
                >
                  Retry fulfilment
                </Button>
              ) : o.provider !== "wallet" && (o.state === "fulfilled" || o.state === "refund_failed") ? (
                <Button variant="secondary" size="sm" loading={refund.isPending} onClick={() => onRefund(o)}>
                  {o.state === "refund_failed" ? "Retry refund" : "Refund"}
                </Button>
              ) : (
                "—"
              ),
          },
          {
            label: "History",
            render: (o) => (
              <details className="admin-diff">
                <summary>{o.transitions.length} steps</summary>
                <ol>
                  {o.transitions.map((t) => (
                    <li key={`${t.at}-${t.to}`}>
                      {dateTime(t.at)}: {t.from ? `${stateLabel(t.from)} → ` : ""}
                      {stateLabel(t.to)} ({t.cause})
                    </li>
                  ))}
                </ol>
              </details>
            ),
          },
        ]}
      />
    </section>
  );
}
