/** The models an agent may answer with (`GET /api/v1/models`), as the agent editor lists them. */
import { listModelsOptions } from '../../../client/@tanstack/react-query.gen';
import type { ListModelsResponse } from '../../../client/types.gen';

export type OfferedModel = ListModelsResponse[number];

/** The operator's list changes only with a restart: it is fetched once per visit. */
export const modelsOptions = () => ({ ...listModelsOptions(), staleTime: Infinity, retry: 1 });
