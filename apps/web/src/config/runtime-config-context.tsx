import { createContext, useContext, type ReactNode } from 'react';
import type { RuntimeConfig } from '@cadre/contract';

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function RuntimeConfigProvider(props: { config: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext.Provider value={props.config}>{props.children}</RuntimeConfigContext.Provider>;
}

/** The checked runtime configuration; the app renders only after it has loaded. */
export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig must be used inside RuntimeConfigProvider');
  return config;
}
