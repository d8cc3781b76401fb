/** How the offline model reads a question about the agent's files, and what it says with the passages found. */

/**
 * Questions about the agent's own files ("according to my documents, …", "what do the files say
 * about …"): the named group is what to search for.
 */
const FILES = String.raw`(?:my|the|our|your|these|those|this|that|attached|uploaded)\s+(?:[\w-]+\s+){0,3}?(?:documents?|files?|docs?|pdfs?|knowledge(?:\s+base)?|sources?|polic(?:y|ies)|handbook|guide|manual|contract|lease|faq|terms|agreement|report|brochure|wiki)`;
export const KNOWLEDGE_QUESTIONS: RegExp[] = [
  new RegExp(
    String.raw`^(?:based on|according to|from|per|going by)\s+${FILES}\s*[,:-]?\s*(?<topic>.+)$`,
    'i',
  ),
  new RegExp(
    String.raw`^what\s+(?:do|does|did)\s+${FILES}\s+(?:say|tell(?:\s+me)?|mention|state|contain)\s+(?:about|on|regarding|concerning)\s+(?<topic>.+)$`,
    'i',
  ),
  new RegExp(String.raw`^what\s+(?:is|are)\s+in\s+${FILES}\s+(?:about|on|regarding)\s+(?<topic>.+)$`, 'i'),
  new RegExp(
    String.raw`^(?:search|look\s+(?:in|through)|check|find\s+in)\s+${FILES}\s+(?:for|about)\s+(?<topic>.+)$`,
    'i',
  ),
  new RegExp(
    String.raw`^(?:do|does)\s+${FILES}\s+(?:say|mention)\s+(?:anything\s+)?(?:about\s+)?(?<topic>.+)$`,
    'i',
  ),
  new RegExp(String.raw`^(?<topic>.+?)\s*[,-]?\s+(?:according to|based on|in)\s+${FILES}$`, 'i'),
  new RegExp(String.raw`^in\s+${FILES}\s*[,:-]\s*(?:what about\s+)?(?<topic>.+)$`, 'i'),
  new RegExp(String.raw`^(?<topic>.+?)[?.!,]*\s+(?:check|see|look in|per)\s+${FILES}$`, 'i'),
  new RegExp(
    String.raw`^(?:tell me|summari[sz]e|show me)\s+what\s+${FILES}\s+(?:says?|tells?)\s+(?:about|on|regarding)\s+(?<topic>.+)$`,
    'i',
  ),
  new RegExp(String.raw`^is there anything in\s+${FILES}\s+(?:about|on|regarding)\s+(?<topic>.+)$`, 'i'),
  new RegExp(String.raw`^(?:check|look in|search)\s+${FILES}\s+for\s+(?<topic>.+)$`, 'i'),
  new RegExp(String.raw`^${FILES}\s*[,:-]+\s*what does it say (?:about|on)\s+(?<topic>.+)$`, 'i'),
];

/** What the offline model says with the passages "Search knowledge" found. */
export const KNOWLEDGE_PHRASES = {
  found: 'According to your files:',
  sources: 'Sources:',
  notCovered: (query: string) =>
    `Your files don't cover “${query}”: the passages I found do not mention it. Try other words, or add a file that does.`,
  none: (query: string) =>
    `I found nothing about “${query}” in this agent's files. Try other words, or check the files in the agent's editor.`,
  source: (n: number, file: string, passage: number, page: number | null) =>
    `[${n}] ${file}, ${page === null ? '' : `page ${page}, `}passage ${passage}`,
} as const;
