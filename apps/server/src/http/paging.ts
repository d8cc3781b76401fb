/**
 * The `Link` header naming a list's next page (contract: pageQuerySchema): the same path with the
 * page's limit and the cursor the next page starts after.
 */
export function nextPageLink(url: string, limit: number, cursor: number | string): string {
  const path = url.split('?')[0];
  return `<${path}?${new URLSearchParams({ limit: String(limit), cursor: String(cursor) })}>; rel="next"`;
}
