/**
 * Arithmetic in English words and symbols, read into an expression the calculator's evaluator
 * understands ("divide 250 by 4" → "250 / 4", "what's 20% of 45" → "20 / 100 * 45"), and, for a
 * single operation, which one it is, so an agent with only Add or Multiply can still run it.
 */

export type Operation =
  | { op: 'add' | 'subtract' | 'multiply' | 'divide'; a: number; b: number }
  | { op: 'power'; base: number; exponent: number }
  | { op: 'sqrt'; x: number }
  | { op: 'percent'; percent: number; of: number };

export interface Arithmetic {
  expression: string;
  operation?: Operation;
}

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  half: 0.5,
};

const NUM = String.raw`-?\d+(?:\.\d+)?`;
const LEAD =
  /^(?:(?:hey|hi|ok|okay|so|please|quick question|and|now|then)[,!]?\s+)*(?:what(?:'s| is| are)|whats|how much (?:is|are)|how many is|calculate|compute|evaluate|work out|figure out|solve|tell me|can you (?:tell me|calculate|compute|work out)|could you (?:tell me|calculate|compute|work out)|do you know|give me|find)?\s*(?:the (?:result|answer|value) of\s+)?/;

const TEMPLATES: Array<[RegExp, (x: number[]) => Operation]> = [
  [
    new RegExp(
      `^(?:add|sum(?: of)?|the sum of|total(?: of)?)\\s+(${NUM})\\s+(?:and|to|plus|with|\\+)\\s+(${NUM})$`,
    ),
    ([a, b]) => ({ op: 'add', a: a!, b: b! }),
  ],
  [new RegExp(`^subtract\\s+(${NUM})\\s+from\\s+(${NUM})$`), ([a, b]) => ({ op: 'subtract', a: b!, b: a! })],
  [
    new RegExp(`^(?:take|deduct)\\s+(${NUM})\\s+(?:away )?from\\s+(${NUM})$`),
    ([a, b]) => ({ op: 'subtract', a: b!, b: a! }),
  ],
  [
    new RegExp(`^(?:the )?difference (?:between|of)\\s+(${NUM})\\s+and\\s+(${NUM})$`),
    ([a, b]) => ({ op: 'subtract', a: a!, b: b! }),
  ],
  [
    new RegExp(`^(?:multiply|the product of|product of)\\s+(${NUM})\\s+(?:by|and|times|with)\\s+(${NUM})$`),
    ([a, b]) => ({ op: 'multiply', a: a!, b: b! }),
  ],
  [
    new RegExp(`^divide\\s+(${NUM})\\s+(?:by|over)\\s+(${NUM})$`),
    ([a, b]) => ({ op: 'divide', a: a!, b: b! }),
  ],
  [
    new RegExp(`^(?:the )?quotient of\\s+(${NUM})\\s+and\\s+(${NUM})$`),
    ([a, b]) => ({ op: 'divide', a: a!, b: b! }),
  ],
  [
    new RegExp(`^(${NUM})\\s*(?:%|percent|per cent)\\s+of\\s+(${NUM})$`),
    ([p, of]) => ({ op: 'percent', percent: p!, of: of! }),
  ],
  [new RegExp(`^(?:the )?(?:square root|sqrt) of\\s+(${NUM})$`), ([x]) => ({ op: 'sqrt', x: x! })],
  [new RegExp(`^(${NUM})\\s+squared$`), ([x]) => ({ op: 'power', base: x!, exponent: 2 })],
  [new RegExp(`^(${NUM})\\s+cubed$`), ([x]) => ({ op: 'power', base: x!, exponent: 3 })],
  [
    new RegExp(
      `^(${NUM})\\s+(?:to the power of|raised to(?: the power of)?|to the)\\s+(${NUM})(?:st|nd|rd|th)?(?: power)?$`,
    ),
    ([b, e]) => ({ op: 'power', base: b!, exponent: e! }),
  ],
];

const SYMBOL: Record<Operation['op'], (o: never) => string> = {
  add: (o: { a: number; b: number }) => `${o.a} + ${o.b}`,
  subtract: (o: { a: number; b: number }) => `${o.a} - ${o.b}`,
  multiply: (o: { a: number; b: number }) => `${o.a} * ${o.b}`,
  divide: (o: { a: number; b: number }) => `${o.a} / ${o.b}`,
  power: (o: { base: number; exponent: number }) => `${o.base} ^ ${o.exponent}`,
  sqrt: (o: { x: number }) => `sqrt(${o.x})`,
  percent: (o: { percent: number; of: number }) => `${o.percent} / 100 * ${o.of}`,
};

/** Operators and function words written out, in the order they must be replaced. */
const WORD_OPERATORS: Array<[RegExp, string]> = [
  [/(\d)\s*(?:%|percent|per cent)\s+of\s+/g, '$1 / 100 * '],
  [/\b(?:the )?square root of\s+/g, 'sqrt '],
  [/\b(?:the )?cube root of\s+/g, 'cbrt '],
  [/\s+squared\b/g, ' ^ 2'],
  [/\s+cubed\b/g, ' ^ 3'],
  [/\s+(?:to the power of|raised to(?: the power of)?)\s+/g, ' ^ '],
  [/\s+(?:multiplied by|times)\s+/g, ' * '],
  [/(\d)\s*x\s*(\d)/g, '$1 * $2'],
  [/\s+(?:divided by|over)\s+/g, ' / '],
  [/\s+(?:plus|and)\s+/g, ' + '],
  [/\s+minus\s+/g, ' - '],
  [/\s+(?:mod|modulo)\s+/g, ' % '],
];

const EXPRESSION = /^[\d.\s+\-*/^%(),]*$/;

/** The number words read as digits ("zero" … "thousand", "half"). */
export const NUMBER_WORDS = Object.keys(WORD_NUMBERS);
const NUMBER_WORD = NUMBER_WORDS.join('|');
const NUMBER_RUN = new RegExp(`\\b(?:${NUMBER_WORD})(?:(?:\\s+|-)(?:and\\s+)?(?:${NUMBER_WORD}))*\\b`, 'g');

/**
 * Number words as digits: "twenty five" → 25, "three hundred and forty two" → 342, "twelve" → 12.
 * "and" joins only inside a number ("hundred and five"), so "add nine and three" keeps its two.
 */
export function numberWords(text: string): string {
  return text.replace(NUMBER_RUN, (phrase) => {
    const parts = phrase.split(/\s+|-/).filter((w) => w !== 'and');
    // "and" joins only after hundred or thousand: "nine and three" is two numbers.
    if (/\band\b/.test(phrase) && !/(?:hundred|thousand)\s+and\b/.test(phrase)) return phrase;
    let total = 0;
    let current = 0;
    for (const w of parts) {
      const n = WORD_NUMBERS[w]!;
      if (w === 'hundred') current = (current || 1) * 100;
      else if (w === 'thousand') {
        total += (current || 1) * 1000;
        current = 0;
      } else if (current % 10 === 0 && current % 100 !== 0 && n < 10) current += n;
      else if (current % 100 === 0 && n < 100) current += n;
      else {
        // Two numbers said one after the other ("four five"): not one number.
        return parts.map((p) => String(WORD_NUMBERS[p])).join(' ');
      }
    }
    return String(total + current);
  });
}

/** Where the arithmetic starts: a number, a bracket, or a word that names an operation. */
const MATH_START =
  /(?:^|\s)(?=\(|-?\d|(?:the )?(?:square|cube) root|sqrt|half of|add|subtract|multiply|divide|sum|the sum|total|take|deduct|(?:the )?difference|(?:the )?product|(?:the )?quotient)/;
/** What may follow the arithmetic: a unit or a courtesy, not another operation. */
const TAIL = /^(?:[a-z€$£]+\s*){1,3}$/;
const KEEP_TAIL = /^(?:squared|cubed)$/;

function normalise(message: string): string {
  let text = message
    .toLowerCase()
    .replace(/[×✕]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[“”"'`]/g, '')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/\b(?:euros?|dollars?|pounds?|bucks|usd|eur|gbp)\b|[€$£]/g, ' ')
    .trim()
    .replace(/[?!.=\s]+$/, '');
  // "quick one: 48 / 6": a lead that ends in a colon says nothing about the arithmetic.
  text = numberWords(text.replace(/^[^:\d]{1,30}:\s+/, '').replace(/\bhalf of\b/g, '0.5 * '));
  // "quick one: 48 / 6", "i need 7% of 1500", "what do you get if you multiply 8 by 12": the words
  // before the arithmetic say nothing about it.
  const start = MATH_START.exec(text);
  if (start && text.slice(0, start.index).trim().split(/\s+/).length <= 8)
    text = text.slice(start.index).trim();
  else text = text.replace(LEAD, '').trim();
  // "… for me", "… please", "… make": words after the last number that are not an operation.
  const last = /(?:\d|\))(?!.*(?:\d|\)))/.exec(text);
  if (last) {
    const tail = text.slice(last.index + 1).trim();
    if (tail && TAIL.test(tail) && !KEEP_TAIL.test(tail)) text = text.slice(0, last.index + 1);
  }
  return text.trim();
}

/** "sum of 5, 10 and 15", "add up 12, 8 and 30": every number added. */
const NUMBER_LIST = new RegExp(
  `^(?:add(?: up)?|(?:the )?sum(?: of)?|(?:the )?total(?: of)?)\\s+(${NUM}(?:\\s*(?:,|and|\\+|plus)\\s*${NUM}){2,})$`,
);
const NUMBERS = new RegExp(NUM, 'g');

/** The expression a message asks to compute, or undefined when it is not arithmetic. */
export function readArithmetic(message: string): Arithmetic | undefined {
  const text = normalise(message);
  if (!/\d/.test(text) || /\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const list = NUMBER_LIST.exec(text);
  if (list) return { expression: list[1]!.match(NUMBERS)!.join(' + ') };
  for (const [pattern, build] of TEMPLATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const operation = build(match.slice(1).map(Number));
    return { expression: SYMBOL[operation.op](operation as never), operation };
  }
  let expression = ` ${text} `;
  for (const [pattern, replacement] of WORD_OPERATORS) expression = expression.replace(pattern, replacement);
  expression = expression.replace(/\bsqrt\s+(\d+(?:\.\d+)?|\([^)]*\))/g, 'sqrt($1)');
  expression = expression.replace(/\bcbrt\s+(\d+(?:\.\d+)?|\([^)]*\))/g, 'cbrt($1)');
  const bare = expression.replace(/\b(?:sqrt|cbrt)\(/g, '(');
  if (!EXPRESSION.test(bare) || !/[+\-*/^%]|\(/.test(bare.replace(/^\s*-/, ''))) return undefined;
  if (!balanced(bare)) return undefined;
  const tidy = expression
    .replace(/\s+/g, ' ')
    .replace(/\s*([+*/^%])\s*/g, ' $1 ')
    .replace(/([\d)])\s*-\s*/g, '$1 - ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .trim();
  return { expression: tidy, operation: single(tidy) };
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const TWO_NUMBERS = new RegExp(`^(${NUM}) ([+\\-*/^]) (${NUM})$`);
const ROOT = new RegExp(`^sqrt\\((${NUM})\\)$`);

/** A written-out single operation of two numbers ("12 * 7"), for tools such as Multiply. */
function single(expression: string): Operation | undefined {
  const match = TWO_NUMBERS.exec(expression);
  if (!match) {
    const root = ROOT.exec(expression);
    return root ? { op: 'sqrt', x: Number(root[1]) } : undefined;
  }
  const [a, b] = [Number(match[1]), Number(match[3])];
  switch (match[2]) {
    case '+':
      return { op: 'add', a, b };
    case '-':
      return { op: 'subtract', a, b };
    case '*':
      return { op: 'multiply', a, b };
    case '/':
      return { op: 'divide', a, b };
    default:
      return { op: 'power', base: a, exponent: b };
  }
}
