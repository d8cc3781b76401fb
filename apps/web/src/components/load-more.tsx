import { Box, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useInView } from '@cadre/ui';
import { useEffect, useRef } from 'react';

/** The part of a paged list's query (lib/paged-list.ts) that loads its next page. */
export interface NextPage {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * Loads the remaining pages one after another while `needed` holds (a search over what is
 * loaded, which must see every item). A failed page stops it until the retry.
 */
export function useRestLoadedWhile(needed: boolean, query: NextPage) {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const idle = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  useEffect(() => {
    if (needed && idle) void fetchNextPage();
  }, [needed, idle, fetchNextPage]);
  /** Whether the rest is still on its way (nothing found so far is not yet "nothing found"). */
  return needed && hasNextPage && !isFetchNextPageError;
}

/** How far below the view the end of the list starts the next page, so it is there when scrolled to. */
const AHEAD = '400px';

/**
 * The end of a list loaded in pages: scrolling it into view loads the next page; the "Load more"
 * button does the same for a keyboard or a screen reader (and where nothing scrolls). While the next
 * page loads it says so; when it failed, it says so with a retry, and the rows already shown stay.
 */
export function LoadMore({ query, noun }: { query: NextPage; noun: string }) {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const end = useRef<HTMLDivElement>(null);
  // Only an idle list loads on its own: a failed page waits for the retry, not for the next scroll.
  const idle = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;

  // A new observer reports at once whether the end is in view: a page that leaves it in view
  // (a tall screen) loads the next one too, until the screen is full.
  useInView(end, () => void fetchNextPage(), idle, { margin: `0px 0px ${AHEAD} 0px` });

  if (!hasNextPage) return null;
  return (
    <Stack ref={end} align="center" gap="2" py="2" data-testid="load-more">
      {isFetchNextPageError ? (
        <HStack gap="3" wrap="wrap" justify="center">
          <Text color="fg.error" role="alert">
            Could not load more {noun}.
          </Text>
          <Button size="sm" variant="outline" onClick={() => void fetchNextPage()}>
            Try again
          </Button>
        </HStack>
      ) : isFetchingNextPage ? (
        <HStack role="status" color="fg.muted" gap="2">
          <Spinner size="sm" color="brand.fg" />
          <Text>Loading more {noun}...</Text>
        </HStack>
      ) : (
        <Box>
          <Button size="sm" variant="outline" onClick={() => void fetchNextPage()}>
            Load more {noun}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
