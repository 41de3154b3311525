import { QueryClient, QueryClientProvider, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { EmptyState } from "./EmptyState.tsx";
import { type InfiniteQueryLike, LoadMore } from "./LoadMore.tsx";
import { type QueryLike, QueryState } from "./QueryState.tsx";
import { Skeleton } from "./Skeleton.tsx";

interface List {
  items: string[];
}

const loading = <Skeleton height={200} />;

function ListState({ query }: { query: QueryLike<List> }) {
  return (
    <QueryState
      query={query}
      loading={loading}
      errorTitle="We couldn't load the list"
      isEmpty={(d) => d.items.length === 0}
      empty={<EmptyState title="Nothing yet">Come back later.</EmptyState>}
    >
      {(data) => (
        <ul>
          {data.items.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function ListPage() {
  const query = useQuery({
    queryKey: ["list"],
    queryFn: (): Promise<List> => Promise.reject(new Error("not in this test")),
    enabled: false,
  });
  return <ListState query={query} />;
}

/** Renders `useQuery(["list"])` from `client`'s cache as the server would (no fetch on render). */
function renderFromCache(client: QueryClient) {
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ListPage />
    </QueryClientProvider>,
  );
}

const nextPage = ({ pageParam }: { pageParam: number }) =>
  Promise.resolve({ items: [pageParam], next: pageParam + 1 });

function PagesMore() {
  const query = useInfiniteQuery({
    queryKey: ["pages"],
    queryFn: nextPage,
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
    enabled: false,
  });
  return <LoadMore query={query} />;
}

function fakeQuery(state: Partial<QueryLike<List>>): QueryLike<List> {
  return { data: undefined, error: null, isError: false, isFetching: false, refetch: vi.fn(), ...state };
}

/**
 * Expands an element tree by calling its (hook-free) function components and returns the host
 * elements (`<button>`, `<p>`…) in order, so a test can read their props and press their handlers.
 */
function hostElements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(hostElements);
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  if (typeof node.type === "function") {
    return hostElements((node.type as (p: unknown) => ReactNode)(node.props));
  }
  return [node, ...hostElements(node.props.children as ReactNode)];
}

function button(node: ReactNode, name: string) {
  const found = hostElements(node).find((e) => e.type === "button" && textOf(e) === name);
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (!isValidElement<Record<string, unknown>>(node)) return "";
  if (typeof node.type === "function") return textOf((node.type as (p: unknown) => ReactNode)(node.props));
  return textOf(node.props.children as ReactNode);
}

describe("QueryState", () => {
  it("shows the loading placeholder while the query has neither data nor error", () => {
    const html = renderFromCache(new QueryClient());
    expect(html).toContain("data-skeleton");
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain("<ul>");
  });

  it("shows the data once the query has it", () => {
    const client = new QueryClient();
    client.setQueryData<List>(["list"], { items: ["Kabali", "Baasha"] });
    const html = renderFromCache(client);
    expect(html).toBe("<ul><li>Kabali</li><li>Baasha</li></ul>");
  });

  it("shows the empty state when isEmpty says the data is empty", () => {
    const client = new QueryClient();
    client.setQueryData<List>(["list"], { items: [] });
    const html = renderFromCache(client);
    expect(html).toContain("<h3>Nothing yet</h3>");
    expect(html).toContain("Come back later.");
    expect(html).not.toContain("data-skeleton");
  });

  it("shows an alert with the error's message and a Retry when the first load failed", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await client
      .fetchQuery({
        queryKey: ["list"],
        queryFn: () => Promise.reject(new Error("The catalogue is resting")),
      })
      .catch(() => undefined);
    const html = renderFromCache(client);
    expect(html).toContain('role="alert"');
    expect(html).toContain("<h3>We couldn&#x27;t load the list</h3>");
    expect(html).toContain("The catalogue is resting");
    expect(html).toMatch(/<button[^>]*>Retry<\/button>/);
    expect(html).not.toContain("data-skeleton");
  });

  it("keeps the data on screen when a background refetch fails", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData<List>(["list"], { items: ["Kabali"] });
    await client
      .fetchQuery({ queryKey: ["list"], queryFn: () => Promise.reject(new Error("offline")), staleTime: 0 })
      .catch(() => undefined);
    expect(client.getQueryState(["list"])?.status).toBe("error");
    const html = renderFromCache(client);
    expect(html).toBe("<ul><li>Kabali</li></ul>");
  });

  it("Retry calls refetch, and spins (disabled, aria-busy) while the refetch runs", () => {
    const refetch = vi.fn();
    const failed = ListState({ query: fakeQuery({ isError: true, error: new Error("down"), refetch }) });
    const retry = button(failed, "Retry");
    expect(retry.props.disabled).toBe(false);
    (retry.props.onClick as () => void)();
    expect(refetch).toHaveBeenCalledTimes(1);

    const retrying = ListState({
      query: fakeQuery({ isError: true, error: new Error("down"), isFetching: true }),
    });
    const busy = button(retrying, "Retry");
    expect(busy.props.disabled).toBe(true);
    expect(busy.props["aria-busy"]).toBe(true);
  });

  it("passes the data to an empty state given as a function", () => {
    const html = renderToStaticMarkup(
      <QueryState
        query={fakeQuery({ data: { items: [] } })}
        loading={loading}
        isEmpty={(d) => d.items.length === 0}
        empty={(d) => <p>{d.items.length} items in Kabali</p>}
      >
        {() => "data"}
      </QueryState>,
    );
    expect(html).toBe("<p>0 items in Kabali</p>");
  });

  it("shows a caller's own error node instead, or nothing for null", () => {
    const query = fakeQuery({ isError: true, error: new Error("down") });
    const own = renderToStaticMarkup(
      <QueryState query={query} loading={loading} error={<p>Shown above</p>}>
        {() => "data"}
      </QueryState>,
    );
    expect(own).toBe("<p>Shown above</p>");
    const none = renderToStaticMarkup(
      <QueryState query={query} loading={loading} error={null}>
        {() => "data"}
      </QueryState>,
    );
    expect(none).toBe("");
  });

  it("lays the default error state out in the caller's frame", () => {
    const html = renderToStaticMarkup(
      <QueryState
        query={fakeQuery({ isError: true, error: new Error("down") })}
        loading={loading}
        errorTitle="We couldn't load the blog"
        errorFrame={(state) => <section className="section">{state}</section>}
      >
        {() => "data"}
      </QueryState>,
    );
    expect(html).toMatch(
      /^<section class="section"><div class="state state-error" role="alert">.*Retry.*<\/section>$/,
    );
  });
});

describe("LoadMore", () => {
  function more(state: Partial<InfiniteQueryLike>): InfiniteQueryLike {
    return {
      hasNextPage: false,
      isFetchingNextPage: false,
      isFetchNextPageError: false,
      fetchNextPage: vi.fn(),
      ...state,
    };
  }

  it("shows nothing on the last page", () => {
    expect(renderToStaticMarkup(<LoadMore query={more({})} />)).toBe("");
  });

  it("offers the next page and fetches it when pressed", () => {
    const query = more({ hasNextPage: true });
    const html = renderToStaticMarkup(<LoadMore query={query} />);
    expect(html).toMatch(/^<div class="load-more"><button[^>]*>Load more<\/button><\/div>$/);
    (button(LoadMore({ query }), "Load more").props.onClick as () => void)();
    expect(query.fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it("spins and is disabled while the next page loads", () => {
    const b = button(LoadMore({ query: more({ hasNextPage: true, isFetchingNextPage: true }) }), "Load more");
    expect(b.props.disabled).toBe(true);
    expect(b.props["aria-busy"]).toBe(true);
  });

  it("says a failed page could not load, keeping the button to try again, with the caller's wording", () => {
    const html = renderToStaticMarkup(
      <LoadMore
        query={more({ hasNextPage: true, isFetchNextPageError: true })}
        label="More posts"
        className="blog-more"
        errorMessage="We couldn't load more posts. Press More posts to try again."
        errorClassName="blog-more muted"
      />,
    );
    expect(html).toContain('<div class="blog-more"><button');
    expect(html).toContain(">More posts</button>");
    expect(html).toContain(
      '<p class="blog-more muted" role="alert">We couldn&#x27;t load more posts. Press More posts to try again.</p>',
    );
  });

  it("works with a real infinite query's result", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await client.prefetchInfiniteQuery({
      queryKey: ["pages"],
      queryFn: nextPage,
      initialPageParam: 0,
      getNextPageParam: (last: { next: number }) => last.next,
    });
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <PagesMore />
      </QueryClientProvider>,
    );
    expect(html).toContain(">Load more</button>");
  });
});
