/**
 * The usage calls as the Usage screen makes them: the generated SDK's query options for the report,
 * and the CSV download through the same client (bearer token, base URL).
 */
import * as sdk from '../../../client/sdk.gen';
import type { GetUsageData, GetUsageResponse } from '../../../client/types.gen';

export type UsageReport = GetUsageResponse;
export type UsageRow = UsageReport['rows'][number];
export type UsageQuery = NonNullable<GetUsageData['query']>;

export { getUsageOptions } from '../../../client/@tanstack/react-query.gen';

/** `GET /api/v1/usage/csv` as a file, never parsed. */
export async function fetchUsageCsv(query: UsageQuery): Promise<Blob> {
  return (await sdk.downloadUsageCsv({ query, parseAs: 'blob' })) as unknown as Blob;
}
