/** Starters as the agents table stores them: JSON text, null when there are none. */
export const startersToText = (starters: string[]) => (starters.length ? JSON.stringify(starters) : null);

export const startersFromText = (text: string | null): string[] =>
  text ? (JSON.parse(text) as string[]) : [];
