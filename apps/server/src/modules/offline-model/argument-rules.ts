import { numberWords } from './arithmetic.ts';

/**
 * Values the offline model reads from a request beyond what each field's type says (arguments.ts):
 * a city as its time zone, an amount of time, and a record's new name.
 */

/** Cities by the last part of their IANA zone: "new york" → America/New_York. */
let cities: Map<string, string> | undefined;
function cityZones(): Map<string, string> {
  cities ??= new Map(
    Intl.supportedValuesOf('timeZone').map((zone) => [
      zone.split('/').at(-1)!.replace(/_/g, ' ').toLowerCase(),
      zone,
    ]),
  );
  return cities;
}

/**
 * The time zone of a city the request names after "in", "to", "from" or before "time" ("in
 * Tokyo", "9am New York time"), in the order said.
 */
export function cityZone(text: string): Array<{ zone: string; index: number; text: string }> {
  const found: Array<{ zone: string; index: number; text: string }> = [];
  const zones = cityZones();
  const words = [...text.matchAll(/[A-Za-z][A-Za-z'-]*/g)];
  for (let i = 0; i < words.length; i++) {
    // Longest first: "los angeles" before "angeles".
    for (let n = 3; n >= 1; n--) {
      const run = words.slice(i, i + n);
      if (run.length < n) continue;
      const name = run.map((m) => m[0].toLowerCase()).join(' ');
      const zone = zones.get(name);
      if (!zone) continue;
      const end = run.at(-1)!.index! + run.at(-1)![0].length;
      found.push({ zone, index: run[0]!.index!, text: text.slice(run[0]!.index!, end) });
      i += n - 1;
      break;
    }
  }
  return found;
}

const UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'];
const DURATION = new RegExp(
  String.raw`\b(?:in\s+)?(-?\d+|[a-z]+(?:[\s-][a-z]+){0,3}?)\s+(${UNITS.join('|')})s?\b(?:\s+(?:from\s+(?:now|today)|later|ahead))?`,
  'gi',
);

/**
 * An amount of time ("90 days", "in 3 months", "five days", "2 weeks from now") and the words that
 * said it.
 */
export function durationIn(text: string): { amount: number; unit: string; text: string } | undefined {
  for (const found of text.matchAll(DURATION)) {
    // The amount as digits or number words ("five", "twenty-one"), the words before it left out
    // ("add five days").
    const words = found[1]!.split(/\s+/);
    for (let from = 0; from < words.length; from++) {
      const amount = Number(numberWords(words.slice(from).join(' ').toLowerCase()));
      const said = found[0].slice(found[0].indexOf(words[from]!));
      if (Number.isInteger(amount)) return { amount, unit: `${found[2]!.toLowerCase()}s`, text: said };
    }
  }
  return undefined;
}

/** "rename note 3 to Shopping", "change the title of event 2 to Budget review": the new name. */
export function newName(message: string): string | undefined {
  const match =
    /\b(?:rename|retitle|change (?:the )?(?:title|name)(?: of)?|call)\b.*?\s(?:to|as)\s+["“']?(.+?)["”']?[.!?]*$/i.exec(
      message,
    );
  return match?.[1]?.trim() || undefined;
}
