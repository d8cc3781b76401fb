import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';

/** How many items one page of a long list brings (the API takes up to 1,000). */
export const LIST_PAGE_SIZE = 50;

/** One page of a list, with the cursor of the page after it when the API named one. */
export interface ListPage<T> {
  items: T[];
  next: string | undefined;
}

/** The cursor of the page a `Link: <…>; rel="next"` header names (contract: pageQuerySchema). */
export function nextCursorOf(link: string | null): string | undefined {
  const url = /<([^>]+)>\s*;\s*rel="next"/.exec(link ?? '')?.[1];
  return url ? (new URL(url, 'http://cursor.invalid').searchParams.get('cursor') ?? undefined) : undefined;
}

/** A generated SDK list call asked for its response fields, so the `Link` header can be read. */
export type PageFetcher = (options: {
  query: { limit: number; cursor?: string };
  signal: AbortSignal;
  responseStyle: 'fields';
}) => Promise<unknown>;

/**
 * A list fetched a page at a time (`useInfiniteQuery`): each page is `LIST_PAGE_SIZE` items after
 * the previous page's cursor, and the data the screen reads is the items of every page loaded, in
 * order. `queryKey` is the generated list key: invalidating the generated key of the whole list
 * matches it too, so a write refreshes the pages loaded (from the first, in order).
 */
export function pagedListOptions<T, TKey extends QueryKey>(queryKey: TKey, fetchPage: PageFetcher) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<T>> => {
      const query = { limit: LIST_PAGE_SIZE, ...(pageParam !== undefined && { cursor: pageParam }) };
      const { data, response } = (await fetchPage({ query, signal, responseStyle: 'fields' })) as {
        data: T[];
        response: Response;
      };
      return { items: data, next: nextCursorOf(response.headers.get('link')) };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
    select: (data) => data.pages.flatMap((page) => page.items),
  });
}
