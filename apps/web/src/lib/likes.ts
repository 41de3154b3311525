import type { NftLikes, socialEndpoints } from "@diginoor/api/social";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "./api.ts";

/**
 * Like counts of NFTs. Every card asks for its own NFT; the asks of one render are batched into
 * one GET /api/v1/likes?nfts=… (at most 100 ids a request).
 */
let pending = new Map<string, ((l: NftLikes) => void)[]>();
let timer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  timer = undefined;
  const batch = pending;
  pending = new Map();
  const ids = [...batch.keys()];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    callApi<typeof socialEndpoints.listLikes>("GET /api/v1/likes", { query: { nfts: chunk.join(",") } })
      .then((res) => {
        for (const item of res.items) for (const resolve of batch.get(item.nftId) ?? []) resolve(item);
      })
      .catch(() => {
        for (const id of chunk)
          for (const resolve of batch.get(id) ?? []) resolve({ nftId: id, count: 0, liked: false });
      });
  }
}

function loadLikes(nftId: string): Promise<NftLikes> {
  return new Promise((resolve) => {
    pending.set(nftId, [...(pending.get(nftId) ?? []), resolve]);
    if (!timer) timer = setTimeout(flush, 10);
  });
}

export const likesKey = (nftId: string) => ["nft-likes", nftId] as const;

export function useNftLikes(nftId: string) {
  return useQuery({ queryKey: likesKey(nftId), queryFn: () => loadLikes(nftId), staleTime: 30_000 });
}

/** Likes or takes back the like (PUT / DELETE /api/v1/nfts/:id/like), showing the change at once. */
export function useToggleLike(nftId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (like: boolean) =>
      like
        ? callApi<typeof socialEndpoints.likeNft>("PUT /api/v1/nfts/{id}/like", { params: { id: nftId } })
        : callApi<typeof socialEndpoints.unlikeNft>("DELETE /api/v1/nfts/{id}/like", {
            params: { id: nftId },
          }),
    onMutate: (like) => {
      const before = client.getQueryData<NftLikes>(likesKey(nftId));
      if (before && before.liked !== like) {
        client.setQueryData(likesKey(nftId), {
          ...before,
          liked: like,
          count: before.count + (like ? 1 : -1),
        });
      }
      return { before };
    },
    onError: (_err, _like, context) => {
      if (context?.before) client.setQueryData(likesKey(nftId), context.before);
    },
    onSuccess: (likes) => client.setQueryData(likesKey(nftId), likes),
  });
}
