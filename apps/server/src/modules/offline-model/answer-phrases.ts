/**
 * What the offline model says about tools' results and failures (answers.ts, model.ts), as data:
 * people's words, never a tool's internal name, an error class or JSON.
 */

const quoted = (s: string) => `“${s}”`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const ANSWERS = {
  noted: (title: string) => `Noted: ${title}.`,
  noNotes: 'You have no notes yet.',
  notes: (n: number) => `You have ${plural(n, 'note')}:`,
  noNoteAbout: (query: string) => `I found no note about ${quoted(query)}.`,
  notesAbout: (n: number, query: string) => `I found ${plural(n, 'note')} about ${quoted(query)}:`,
  emptyNote: '(The note has no text.)',
  updatedNote: (title: string) => `Updated the note '${title}'.`,
  deletedNote: (title: string | undefined) => (title ? `Deleted the note '${title}'.` : 'Deleted the note.'),
  addedEvent: (title: string, at: string) => `Added ${quoted(title)} to your calendar: ${at}.`,
  noEvents: 'Nothing on your calendar then.',
  noEventAbout: (query: string) => `I found no event about ${quoted(query)}.`,
  events: (n: number) => `You have ${plural(n, 'event')}:`,
  updatedEvent: (title: string, at: string) => `Updated ${quoted(title)}: ${at}.`,
  deletedEvent: (title: string | undefined) =>
    title ? `Deleted the event '${title}'.` : 'Deleted the event.',
  noFreeTime: 'You have no free time then.',
  freeTime: 'You are free:',
  exported: (n: number) => `Here is your calendar as an .ics file (${plural(n, 'event')}):`,
  now: (readable: string) => `It is ${readable}.`,
  converted: (from: string, to: string) => `${from} is ${to}.`,
  dateIs: (readable: string) => `That is ${readable}.`,
  dayOfWeek: (date: string, day: string) => `${date} is a ${day}.`,
  difference: (start: string, end: string, days: number) =>
    `From ${start} to ${end} is ${plural(Math.abs(days), 'day')}${days < 0 ? ' (the end is earlier)' : ''}.`,
  result: (value: number) => `The result is **${value}**.`,
  done: 'Done.',
  hereIs: 'Here is what I found:',
  nothingFound: 'I found nothing.',
  found: (n: number) => `I found ${plural(n, 'result')}:`,
  more: (n: number) => `…and ${n} more.`,
  /** A search for the record a request named by its topic (intents.ts) found several, or none. */
  whichOne: (n: number, kind: string, query: string) =>
    `I found ${plural(n, kind)} about ${quoted(query)}. Which one do you mean?`,
  noneToChange: (kind: string, query: string) => `I found no ${kind} about ${quoted(query)}.`,
} as const;

export const FAILURES = {
  denied: (reason: string | undefined) =>
    `OK, you denied it, so I did not do it${reason && !/denied/i.test(reason) ? ` (${reason.replace(/\.$/, '')})` : ''}.`,
  failed: (why: string) => `That didn't work: ${why}`,
  invalid: (why: string) => `I couldn't do that: ${why}.`,
  unknown: "That didn't work, and the service gave no reason.",
  unshowable: 'It worked, but the result is not something I can show here.',
} as const;
