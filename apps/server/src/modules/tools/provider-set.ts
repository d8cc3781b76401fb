import { HttpError } from '../../http/errors.ts';
import type { ProviderId, ToolProvider } from './provider.ts';

/** The providers this server enables, found by the id stored with each service. */
export interface ProviderSet {
  readonly all: readonly ToolProvider[];
  /** The provider, or undefined when this server does not enable it (any more). */
  find(id: string): ToolProvider | undefined;
  /** The provider; a 503 when this server does not enable it. */
  get(id: string): ToolProvider;
}

export function providerSet(providers: readonly ToolProvider[]): ProviderSet {
  const find = (id: string) => providers.find((p) => p.id === (id as ProviderId));
  return {
    all: providers,
    find,
    get(id) {
      const provider = find(id);
      if (!provider)
        throw new HttpError('unavailable', 'This service provider is not enabled on this server');
      return provider;
    },
  };
}
