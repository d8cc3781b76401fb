/**
 * The agent editor's sections, each reached by its own link (`/agents/12/edit?section=knowledge`):
 * the editor shows one at a time, so no section is lost below the others.
 */
export const EDITOR_SECTIONS = [
  { id: 'configure', label: 'Configure' },
  { id: 'knowledge', label: 'Knowledge' },
  { id: 'publish', label: 'Publish' },
  { id: 'triggers', label: 'Triggers' },
  { id: 'history', label: 'History' },
] as const;

export type EditorSection = (typeof EDITOR_SECTIONS)[number]['id'];

/**
 * The route's search: a section it knows, else none (the editor opens on Configure). The key is
 * always set: the router lays it over the raw search, where an unknown value would otherwise stay.
 */
export function editorSearch(search: Record<string, unknown>): { section?: EditorSection } {
  return { section: EDITOR_SECTIONS.find((s) => s.id === search.section)?.id };
}
