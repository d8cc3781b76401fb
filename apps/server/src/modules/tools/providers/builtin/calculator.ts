import { z } from 'zod';
import { ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, type BuiltinService } from './define.ts';

/**
 * Arithmetic and an expression evaluator. The evaluator is a tokenizer and a recursive-descent
 * parser over numbers, + - * / % ^, parentheses, a few functions and constants: nothing is ever
 * evaluated as code (DESIGN.md section 4; test F1).
 */

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string } | { kind: 'id'; value: string };

const MAX_EXPRESSION = 1000;
const MAX_DEPTH = 100;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (num) {
      tokens.push({ kind: 'num', value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (id) {
      tokens.push({ kind: 'id', value: id[0].toLowerCase() });
      i += id[0].length;
      continue;
    }
    if (text.startsWith('**', i)) {
      tokens.push({ kind: 'op', value: '^' });
      i += 2;
      continue;
    }
    if ('+-*/%^(),×÷'.includes(ch)) {
      tokens.push({ kind: 'op', value: ch === '×' ? '*' : ch === '÷' ? '/' : ch });
      i++;
      continue;
    }
    throw new ToolError('invalid_input', `Unexpected character "${ch}" at position ${i + 1}`);
  }
  return tokens;
}

const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...args: number[]) => number }> = {
  sqrt: { arity: [1, 1], fn: Math.sqrt },
  cbrt: { arity: [1, 1], fn: Math.cbrt },
  abs: { arity: [1, 1], fn: Math.abs },
  round: { arity: [1, 2], fn: (x, d = 0) => Math.round(x * 10 ** d) / 10 ** d },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  ln: { arity: [1, 1], fn: Math.log },
  log: { arity: [1, 1], fn: Math.log10 },
  log2: { arity: [1, 1], fn: Math.log2 },
  exp: { arity: [1, 1], fn: Math.exp },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  asin: { arity: [1, 1], fn: Math.asin },
  acos: { arity: [1, 1], fn: Math.acos },
  atan: { arity: [1, 1], fn: Math.atan },
  min: { arity: [1, 50], fn: Math.min },
  max: { arity: [1, 50], fn: Math.max },
  pow: { arity: [2, 2], fn: Math.pow },
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

export function evaluateExpression(text: string): number {
  if (text.length > MAX_EXPRESSION) throw new ToolError('invalid_input', 'The expression is too long');
  const tokens = tokenize(text);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos];
  const isOp = (value: string) => peek()?.kind === 'op' && peek()!.value === value;
  const expect = (value: string) => {
    if (!isOp(value)) throw new ToolError('invalid_input', `Expected "${value}"`);
    pos++;
  };
  const enter = () => {
    if (++depth > MAX_DEPTH) throw new ToolError('invalid_input', 'The expression is nested too deeply');
  };

  function expression(): number {
    let value = term();
    while (isOp('+') || isOp('-')) {
      const op = tokens[pos++]!.value;
      const right = term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }
  function term(): number {
    let value = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = tokens[pos++]!.value;
      const right = unary();
      if (op !== '*' && right === 0) throw new ToolError('invalid_input', 'Division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }
  function unary(): number {
    enter();
    try {
      if (isOp('-')) {
        pos++;
        return -unary();
      }
      if (isOp('+')) {
        pos++;
        return unary();
      }
      return power();
    } finally {
      depth--;
    }
  }
  function power(): number {
    const base = primary();
    if (isOp('^')) {
      pos++;
      return base ** unary(); // right-associative: 2^3^2 = 2^9
    }
    return base;
  }
  function primary(): number {
    const token = peek();
    if (!token) throw new ToolError('invalid_input', 'The expression ended unexpectedly');
    if (token.kind === 'num') {
      pos++;
      return token.value;
    }
    if (token.kind === 'id') {
      pos++;
      if (isOp('(')) {
        const fn = FUNCTIONS[token.value];
        if (!fn) throw new ToolError('invalid_input', `Unknown function "${token.value}"`);
        pos++;
        const args: number[] = [];
        if (!isOp(')')) {
          args.push(expression());
          while (isOp(',')) {
            pos++;
            args.push(expression());
          }
        }
        expect(')');
        if (args.length < fn.arity[0] || args.length > fn.arity[1]) {
          throw new ToolError('invalid_input', `Wrong number of arguments for ${token.value}()`);
        }
        return fn.fn(...args);
      }
      const constant = CONSTANTS[token.value];
      if (constant === undefined) throw new ToolError('invalid_input', `Unknown name "${token.value}"`);
      return constant;
    }
    if (token.value === '(') {
      pos++;
      enter();
      const value = expression();
      depth--;
      expect(')');
      return value;
    }
    throw new ToolError('invalid_input', `Unexpected "${token.value}"`);
  }

  const value = expression();
  if (pos < tokens.length) throw new ToolError('invalid_input', `Unexpected "${tokens[pos]!.value}"`);
  return finite(value);
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new ToolError('invalid_input', 'The result is not a finite number');
  // Hide binary floating-point noise (0.1 + 0.2) without losing meaningful digits.
  return Number(value.toPrecision(15));
}

const pair = z.object({
  a: z.number().describe('The first number'),
  b: z.number().describe('The second number'),
});

export const calculator: BuiltinService = {
  key: 'calculator',
  name: 'Calculator',
  description:
    'Exact arithmetic for agents: add, subtract, multiply, divide, powers, square roots, percentages, and a full expression evaluator with parentheses and functions such as sqrt, round, log, sin, min and max.',
  logo: initialsLogo('±', '#4A5568'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'add',
      displayName: 'Add',
      description: 'Adds two numbers (a + b).',
      effect: 'read',
      input: pair,
      run: async ({ a, b }) => ({ result: finite(a + b) }),
    }),
    defineAction({
      name: 'subtract',
      displayName: 'Subtract',
      description: 'Subtracts b from a (a - b).',
      effect: 'read',
      input: pair,
      run: async ({ a, b }) => ({ result: finite(a - b) }),
    }),
    defineAction({
      name: 'multiply',
      displayName: 'Multiply',
      description: 'Multiplies two numbers (a × b).',
      effect: 'read',
      input: pair,
      run: async ({ a, b }) => ({ result: finite(a * b) }),
    }),
    defineAction({
      name: 'divide',
      displayName: 'Divide',
      description: 'Divides a by b (a ÷ b). Fails when b is zero.',
      effect: 'read',
      input: pair,
      run: async ({ a, b }) => {
        if (b === 0) throw new ToolError('invalid_input', 'Division by zero');
        return { result: finite(a / b) };
      },
    }),
    defineAction({
      name: 'power',
      displayName: 'Power',
      description: 'Raises base to the given exponent (base ^ exponent).',
      effect: 'read',
      input: z.object({ base: z.number(), exponent: z.number() }),
      run: async ({ base, exponent }) => ({ result: finite(base ** exponent) }),
    }),
    defineAction({
      name: 'sqrt',
      displayName: 'Square root',
      description: 'The square root of a non-negative number.',
      effect: 'read',
      input: z.object({ x: z.number().min(0).describe('A number ≥ 0') }),
      run: async ({ x }) => ({ result: finite(Math.sqrt(x)) }),
    }),
    defineAction({
      name: 'percent',
      displayName: 'Percentage',
      description: 'Computes percent % of a value, e.g. percent=15, of=80 gives 12.',
      effect: 'read',
      input: z.object({
        percent: z.number().describe('The percentage, e.g. 15 for 15%'),
        of: z.number().describe('The value to take the percentage of'),
      }),
      run: async ({ percent, of }) => ({ result: finite((percent / 100) * of) }),
    }),
    defineAction({
      name: 'evaluate',
      displayName: 'Evaluate expression',
      description:
        'Evaluates an arithmetic expression. Supports + - * / % (remainder) ^ (power), parentheses, unary minus, the constants pi, e, tau and the functions sqrt, cbrt, abs, round(x, digits), floor, ceil, ln, log (base 10), log2, exp, sin, cos, tan, asin, acos, atan (radians), min, max and pow. Example: "(3 + 4) * 2 ^ 3 / sqrt(16)".',
      effect: 'read',
      input: z.object({
        expression: z.string().min(1).max(MAX_EXPRESSION).describe('The expression to evaluate'),
      }),
      run: async ({ expression }) => ({ expression, result: evaluateExpression(expression) }),
    }),
  ],
};
