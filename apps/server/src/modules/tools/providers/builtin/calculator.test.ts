import { describe, expect, it } from 'vitest';
import { ToolError } from '../../provider.ts';
import { evaluateExpression } from './calculator.ts';

describe('the expression evaluator (a parser, never eval)', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 10', 1024],
    ['-2 ^ 2', -4],
    ['10 % 4', 2],
    ['0.1 + 0.2', 0.3],
    ['sqrt(16) + abs(-3)', 7],
    ['round(pi, 2)', 3.14],
    ['max(1, 5, 3) - min(4, 2)', 3],
    ['log(1000)', 3],
    ['1.5e3 / 3', 500],
    ['6 × 7 ÷ 2', 21],
  ])('%s = %s', (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected);
  });

  it.each([
    'process.exit()',
    'constructor',
    "require('child_process')",
    '1 +',
    '(1 + 2',
    '1 / 0',
    'foo(1)',
    '2 ^ 5000',
    '1; 2',
    '`x`',
    '('.repeat(500) + '1' + ')'.repeat(500),
  ])('refuses %s', (expression) => {
    expect(() => evaluateExpression(expression)).toThrow(ToolError);
  });
});
