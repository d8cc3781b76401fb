import { Skeleton, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A list a query loads, in each of its states: a skeleton while it loads (named for assistive
 * technology), an alert when it failed, a muted line when it is empty, else the list itself.
 */
export function QueryList<T>(props: {
  query: { isPending: boolean; isError: boolean };
  items: T[] | undefined;
  text: { loading: string; error: string; empty: string };
  skeletonHeight: string;
  children: (items: T[]) => ReactNode;
}) {
  const { query, items, text } = props;
  if (query.isPending) return <Skeleton height={props.skeletonHeight} aria-label={text.loading} />;
  if (query.isError || !items)
    return (
      <Text color="fg.error" role="alert">
        {text.error}
      </Text>
    );
  if (items.length === 0) return <Text color="fg.muted">{text.empty}</Text>;
  return props.children(items);
}
