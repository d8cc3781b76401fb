import { MAX_ID } from '@cadre/contract';

/**
 * An agent's model id on the OpenAI-compatible API: its name in lower-case ASCII words joined by
 * `-`, then its numeric id (`sum-helper-12`), so clients that show ids show something readable.
 */
export function modelIdOf(agent: { id: number; name: string }): string {
  const words = agent.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return `${words || 'agent'}-${agent.id}`;
}

/**
 * The agent a model id names: the number at its end. The words before it are for people only, so
 * an id keeps working after the agent is renamed; the bare numeric id is accepted too.
 */
export function agentIdOf(model: string | number): number | undefined {
  const match = /^(?:[a-z0-9][a-z0-9-]*-)?(\d{1,10})$/.exec(String(model));
  const id = match ? Number(match[1]) : undefined;
  return id !== undefined && id >= 1 && id <= MAX_ID ? id : undefined;
}
