// The studio console's calls to /api/v1/admin (shapes from packages/api/src/admin.ts).
import type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ConsoleMe,
  ContactMessage,
  HiddenToken,
  Studio,
  UploadPurpose,
  UploadResponse,
} from "@diginoor/api/admin";
import { adminEndpoints as api } from "@diginoor/api/admin";
import { lotteryEndpoints } from "@diginoor/api/lottery";
import type { orderEndpoints } from "@diginoor/api/orders";
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type ApiAnswer,
  ApiError,
  type ApiCallInput,
  type ApiRoute,
  apiFetch,
  apiUrl,
  callApi,
} from "../../lib/api.ts";

export type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ContactMessage,
  HiddenToken,
  Studio,
};

const uploadRoute: ApiRoute<typeof api.upload> = "POST /api/v1/admin/images";
export const adminKeys = {
  all: ["admin"] as const,
  me: ["admin", "me"] as const,
  list: (what: string, q: unknown = "") => ["admin", what, q] as const,
};

/** The console's collections (listed, created and edited in a CrudSection), by their path. */
export interface ConsoleCollections {
  studios: typeof api.studios;
  celebrities: typeof api.celebrities;
  films: typeof api.films;
  nfts: typeof api.nfts;
  posts: typeof api.posts;
  lotteries: typeof lotteryEndpoints.admin;
}
export type CollectionName = keyof ConsoleCollections;
/** A row of collection `K`, as its list endpoint answers it. */
export type ItemOf<K extends CollectionName> =
  ApiAnswer<ConsoleCollections[K]["list"]> extends { items: (infer Item)[] } ? Item : never;

/** The console's lists and pages, each typed by its packages/api endpoint. */
interface ConsoleLists {
  studios: typeof api.studios.list;
  celebrities: typeof api.celebrities.list;
  films: typeof api.films.list;
  nfts: typeof api.nfts.list;
  posts: typeof api.posts.list;
  lotteries: typeof lotteryEndpoints.admin.list;
  "hidden-tokens": typeof api.hiddenTokens;
}
interface ConsolePages {
  users: typeof api.listUsers;
  "contact-messages": typeof api.contactMessages;
  "audit-log": typeof api.auditLog;
  orders: typeof orderEndpoints.adminListOrders;
}

// Each route is spelled as its endpoint declares it: the type check fails if one drifts.
const listRoutes: { [K in keyof ConsoleLists]: ApiRoute<ConsoleLists[K]> } = {
  studios: "GET /api/v1/admin/studios",
  celebrities: "GET /api/v1/admin/celebrities",
  films: "GET /api/v1/admin/films",
  nfts: "GET /api/v1/admin/nfts",
  posts: "GET /api/v1/admin/posts",
  lotteries: "GET /api/v1/admin/lotteries",
  "hidden-tokens": "GET /api/v1/admin/hidden-tokens",
};
const pageRoutes: { [K in keyof ConsolePages]: ApiRoute<ConsolePages[K]> } = {
  users: "GET /api/v1/admin/users",
  "contact-messages": "GET /api/v1/admin/contact-messages",
  "audit-log": "GET /api/v1/admin/audit-log",
  orders: "GET /api/v1/admin/orders",
};
const writeRoutes: {
  [K in CollectionName]: {
    create: ApiRoute<ConsoleCollections[K]["create"]>;
    update: ApiRoute<ConsoleCollections[K]["update"]>;
  };
} = {
  studios: { create: "POST /api/v1/admin/studios", update: "PATCH /api/v1/admin/studios/{id}" },
  celebrities: { create: "POST /api/v1/admin/celebrities", update: "PATCH /api/v1/admin/celebrities/{id}" },
  films: { create: "POST /api/v1/admin/films", update: "PATCH /api/v1/admin/films/{id}" },
  nfts: { create: "POST /api/v1/admin/nfts", update: "PATCH /api/v1/admin/nfts/{id}" },
  posts: { create: "POST /api/v1/admin/posts", update: "PATCH /api/v1/admin/posts/{slug}" },
  lotteries: { create: "POST /api/v1/admin/lotteries", update: "PATCH /api/v1/admin/lotteries/{id}" },
};

/** The console's own session probe: 401 signed out, 403 for accounts that are not staff. */
export function useConsoleMe(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.me,
    queryFn: ({ signal }): Promise<ConsoleMe> => callApi<typeof api.me>("GET /api/v1/admin/me", { signal }),
    enabled,
    retry: false,
  });
}

/** A whole console list (`GET /api/v1/admin/<what>`), typed by its endpoint. */
export function useAdminList<K extends keyof ConsoleLists>(what: K, enabled = true) {
  return useQuery({
    queryKey: adminKeys.list(what),
    queryFn: ({ signal }) => apiFetch<ApiAnswer<ConsoleLists[K]>>(apiUrl(listRoutes[what]), { signal }),
    enabled,
  });
}

/**
 * A collection's rows for its CrudSection. The same list as useAdminList; the cast only says what
 * TypeScript cannot follow through a generic key (ConsoleLists[K] is ConsoleCollections[K]["list"]).
 */
export function useCollectionList<K extends CollectionName>(what: K) {
  return useAdminList(what) as UseQueryResult<{ items: ItemOf<K>[] }>;
}

/** A page of a console list with its query (search, state, cursor), typed by its endpoint. */
export function useAdminPage<K extends keyof ConsolePages>(
  what: K,
  query?: ApiCallInput<ConsolePages[K]>["query"],
) {
  return useQuery({
    queryKey: adminKeys.list(what, query ?? {}),
    queryFn: ({ signal }) =>
      apiFetch<ApiAnswer<ConsolePages[K]>>(apiUrl(pageRoutes[what], undefined, query), { signal }),
  });
}

/** A console write; every console list is refetched after it (the audit log too). */
export function useAdminWrite<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** The body of a create (`isNew`) or a change of collection `K`, as its packages/api endpoint takes it. */
export type BodyOf<K extends CollectionName> =
  | ApiCallInput<ConsoleCollections[K]["create"]>["body"]
  | ApiCallInput<ConsoleCollections[K]["update"]>["body"];

const collections: ConsoleCollections = {
  studios: api.studios,
  celebrities: api.celebrities,
  films: api.films,
  nfts: api.nfts,
  posts: api.posts,
  lotteries: lotteryEndpoints.admin,
};

/** The schema the server checks a create (`isNew`) or a change of collection `what` with. */
export function bodySchemaOf(what: CollectionName, isNew: boolean) {
  const endpoints = collections[what];
  return isNew ? endpoints.create.body : endpoints.update.body;
}

/** The schema of "Exit to IPFS": the endpoint's body (the root CID). */
export const ipfsExitFormSchema = api.ipfsExit.body;

/** Where the collectible's token URIs point now, read from the chain (the Chain section). */
export function useChainMetadata() {
  return useQuery({
    queryKey: adminKeys.list("chain-metadata"),
    queryFn: ({ signal }) =>
      callApi<typeof api.chainMetadata>("GET /api/v1/admin/chain/metadata", { signal }),
  });
}

/** The schema of "Hide a token": the path's token id and the body, as one form. */
export const hideTokenFormSchema = api.hideToken.body.extend(api.hideToken.params.shape);

/**
 * Creates (`id` null) or changes a row of collection `what`; answers the row as saved. The body is one
 * the form checked against `bodySchemaOf(what, id === null)` before sending.
 */
export function save<K extends CollectionName>(
  what: K,
  id: string | number | null,
  body: BodyOf<K>,
): Promise<ItemOf<K>> {
  const routes = writeRoutes[what];
  const route: string = id === null ? routes.create : routes.update;
  return apiFetch<ItemOf<K>>(apiUrl(route, { id, slug: id }), {
    method: id === null ? "POST" : "PATCH",
    body,
  });
}

/** The console's actions on one user, token or order, typed by their packages/api endpoints. */
export const consoleActions = {
  suspendUser: (id: string, suspend: boolean) =>
    suspend
      ? callApi<typeof api.suspendUser>("POST /api/v1/admin/users/{id}/suspend", { params: { id } })
      : callApi<typeof api.unsuspendUser>("POST /api/v1/admin/users/{id}/unsuspend", { params: { id } }),
  setUserRole: (id: string, body: ApiCallInput<typeof api.setUserRole>["body"]) =>
    callApi<typeof api.setUserRole>("PUT /api/v1/admin/users/{id}/role", { params: { id }, body }),
  hideToken: (tokenId: string, body: ApiCallInput<typeof api.hideToken>["body"]) =>
    callApi<typeof api.hideToken>("PUT /api/v1/admin/hidden-tokens/{tokenId}", { params: { tokenId }, body }),
  unhideToken: (tokenId: string) =>
    callApi<typeof api.unhideToken>("DELETE /api/v1/admin/hidden-tokens/{tokenId}", { params: { tokenId } }),
  exitToIpfs: (body: ApiCallInput<typeof api.ipfsExit>["body"]) =>
    callApi<typeof api.ipfsExit>("POST /api/v1/admin/chain/ipfs-exit", { body }),
  retryFulfilment: (orderId: string) =>
    callApi<typeof orderEndpoints.adminRetryFulfilment>("POST /api/v1/admin/orders/{orderId}/retry", {
      params: { orderId },
    }),
  refundOrder: (orderId: string) =>
    callApi<typeof orderEndpoints.adminRefundOrder>("POST /api/v1/admin/orders/{orderId}/refund", {
      params: { orderId },
    }),
  payLotteryPrize: (id: string, reference: string) =>
    callApi<typeof lotteryEndpoints.admin.payPrize>("POST /api/v1/admin/lotteries/{id}/prize-payment", {
      params: { id },
      body: { reference },
    }),
};

/** Uploads one image (multipart, field "file"); answers the URLs of its renditions by name. */
export async function uploadImage(purpose: UploadPurpose, file: File): Promise<Record<string, string>> {
  const form = new FormData();
  form.append("file", file);
  let res: Response;
  try {
    res = await fetch(apiUrl(uploadRoute, undefined, { purpose }), {
      method: "POST",
      body: form,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network_error", "Network error, please retry");
  }
  const data = (await res.json().catch(() => undefined)) as
    | UploadResponse
    | { error?: { code?: string; message?: string } }
    | undefined;
  if (!res.ok || !data || !("images" in data)) {
    const err = data && "error" in data ? data.error : undefined;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? "The upload failed");
  }
  return data.images;
}
