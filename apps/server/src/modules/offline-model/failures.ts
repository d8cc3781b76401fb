import { FAILURES } from './answer-phrases.ts';

/**
 * A tool's failure in people's words. The SDK hands the model an error as `String(error)`, so the
 * text may begin with an error class ("ToolFailure: …", "AI_InvalidToolInputError: …") and, for
 * arguments the tool's schema refused, carry the validator's terms; none of that is said.
 */

const CLASS_PREFIX = /^\s*(?:AI_\w+|[A-Z]\w*(?:Error|Failure|Exception))\s*:\s*/;

const field = (path: string) => `the ${path.replace(/[._-]+/g, ' ').trim() || 'input'}`;

/** One problem of our validator ("title must NOT have more than 200 characters") as people say it. */
function problem(text: string): string | undefined {
  const t = text.trim();
  let m: RegExpExecArray | null;
  if ((m = /^unknown field "([^"]+)"$/.exec(t))) return undefined;
  if ((m = /^missing field "([^"]+)"$/.exec(t))) return `${field(m[1]!)} is missing`;
  if ((m = /^(\S*) must NOT have more than (\d+) (characters|items)$/.exec(t)))
    return `${field(m[1]!)} is too long (at most ${m[2]} ${m[3]})`;
  if ((m = /^(\S*) must NOT have fewer than (\d+) (characters|items)$/.exec(t)))
    return m[2] === '1'
      ? `${field(m[1]!)} is empty`
      : `${field(m[1]!)} is too short (at least ${m[2]} ${m[3]})`;
  if ((m = /^(\S*) must be (integer|number|string|boolean)$/.exec(t)))
    return `${field(m[1]!)} must be ${m[2] === 'integer' ? 'a whole number' : `a ${m[2] === 'string' ? 'text' : m[2]}`}`;
  if ((m = /^(\S*) must be (>=|<=|>|<) (-?[\d.]+)$/.exec(t))) {
    const bound = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' }[m[2]!];
    return `${field(m[1]!)} must be ${bound} ${m[3]}`;
  }
  if ((m = /^(\S*) must be equal to one of the allowed values$/.exec(t)))
    return `${field(m[1]!)} is not one of the allowed values`;
  const [path, ...rest] = t.split(' ');
  return rest.length ? `${field(path!)} ${rest.join(' ')}` : t;
}

/** What the model says when a tool failed with this text. */
export function failureAnswer(raw: string): string {
  let text = raw;
  while (CLASS_PREFIX.test(text)) text = text.replace(CLASS_PREFIX, '');
  text = text.trim();
  const invalid = /Invalid arguments: ([^\n]*)/.exec(text);
  if (invalid) {
    const problems = invalid[1]!.split(';').flatMap((p) => problem(p) ?? []);
    return FAILURES.invalid(problems.length ? problems.join('; ') : 'some of the details were not right');
  }
  if (/Invalid input for tool|Type validation failed|invalid arguments/i.test(text))
    return FAILURES.invalid('some of the details were not right');
  // The runtime's own words name the tool ("Tool "x" is not available…"): say what happened instead.
  if (/^Tool "[^"]*" is not available/.test(text)) return FAILURES.failed('this agent cannot do that.');
  if (!text) return FAILURES.unknown;
  return FAILURES.failed(/[.!?)]$/.test(text) ? text : `${text}.`);
}
