import type { MathNode, OperatorNode, SymbolNode } from 'mathjs';
import { mathjs } from '../core/index.js';
import { exactRational, type Rational } from './exact-rational.js';
import { GREEK_LETTERS } from './latex-to-mathjs.js';

/** The only functions an answer may call; anything else (mathjs `import`, `evaluate`...) is refused. */
const ALLOWED_FUNCTIONS = new Set(['sqrt', 'nthRoot', 'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'asin', 'acos', 'atan', 'log', 'exp', 'combinations', 'abs']);
const ALLOWED_OPERATORS = new Set(['add', 'subtract', 'multiply', 'divide', 'pow', 'unaryMinus', 'unaryPlus', 'factorial']);
/** Symbols with a fixed value in mathjs that answers use as such. */
export const CONSTANTS = new Set(['pi', 'e', 'i', 'Infinity']);
/** Longest expression text parsed; a longer answer is compared as a string. */
const MAX_EXPRESSION_CHARS = 2_000;

/** A complex value; real values have `im` 0. */
export interface ComplexValue {
  re: number;
  im: number;
}

/** A parsed, checked expression with its free variables. */
export interface SafeExpression {
  /** Free variables, sorted (single letters and Greek names). */
  variables: string[];
  /** Value at the given variable values; undefined when it is not a number (a unit, a matrix). */
  evaluate(scope: Readonly<Record<string, number>>): ComplexValue | undefined;
  /** The exact value when the expression is rational arithmetic on literals (see `exactRational`). */
  exact(): Rational | undefined;
}

/**
 * Parses a mathjs expression written by `latexToMathjs` from a model's answer, and accepts it only
 * when every node is a number, a variable, an arithmetic operator or an allowed function, so no
 * answer can reach mathjs' other functions. Multi-letter names that are not constants or Greek
 * letters are products (`xy` = `x*y`); a call of an unknown one-letter name is a product too
 * (`x(x+1)`). Returns undefined when the text does not parse or uses anything else.
 *
 * @example
 * safeExpression('2 x + 1')?.evaluate({ x: 3 }); // { re: 7, im: 0 }
 */
export function safeExpression(text: string): SafeExpression | undefined {
  if (text.length > MAX_EXPRESSION_CHARS) return undefined;
  const { parse, isComplex } = mathjs();
  let root: MathNode;
  try {
    root = rewriteProducts(parse(text));
  } catch {
    return undefined;
  }
  const variables = new Set<string>();
  let allowed = true;
  root.traverse((node, path, parent) => {
    if (node.type === 'FunctionNode') {
      const name = (node as unknown as { fn: { name?: string } }).fn.name;
      if (name === undefined || !ALLOWED_FUNCTIONS.has(name)) allowed = false;
    } else if (node.type === 'SymbolNode') {
      if (parent?.type === 'FunctionNode' && path === 'fn') return;
      const name = (node as SymbolNode).name;
      if (!CONSTANTS.has(name)) variables.add(name);
    } else if (node.type === 'OperatorNode') {
      if (!ALLOWED_OPERATORS.has((node as OperatorNode).fn)) allowed = false;
    } else if (node.type !== 'ConstantNode' && node.type !== 'ParenthesisNode') {
      allowed = false;
    }
  });
  if (!allowed) return undefined;
  const compiled = root.compile();
  return {
    variables: [...variables].sort(),
    exact: () => exactRational(root),
    evaluate(scope) {
      let value: unknown;
      try {
        // A fresh Map: mathjs must never see a symbol it would resolve as a unit (`m`, `cm`).
        // mathjs looks functions up in the scope first: `combinations` is the bounded one.
        value = compiled.evaluate(new Map<string, unknown>([...Object.entries(scope), ['combinations', boundedCombinations]]));
      } catch {
        return undefined;
      }
      if (typeof value === 'number') return { re: value, im: 0 };
      if (isComplex(value)) return { re: value.re, im: value.im };
      return undefined;
    },
  };
}

/**
 * Beyond this `min(k, n - k)` = m, `C(n, k)` is at least `C(2m, m)`, larger than any double
 * (`C(1030, 515)` is about 2^1024.7), so its value is of no use; mathjs would still multiply m
 * times, and `\binom{1e14}{5e13}` ran for days with the event loop blocked (issue 23).
 */
const MAX_COMBINATIONS_STEPS = 514;

/** mathjs `combinations`, refusing (throwing, so the value is undefined) operands whose result no double holds. */
function boundedCombinations(n: unknown, k: unknown): unknown {
  if (typeof n === 'number' && typeof k === 'number' && Number.isInteger(n) && Number.isInteger(k) && k >= 0 && k <= n && Math.min(k, n - k) > MAX_COMBINATIONS_STEPS) {
    throw new RangeError(`combinations(${n}, ${k}) is beyond floating point`);
  }
  return mathjs().combinations(n as number, k as number);
}

function rewriteProducts(root: MathNode): MathNode {
  const { SymbolNode, ParenthesisNode } = mathjs();
  return root.transform((node, path, parent) => {
    if (node.type === 'SymbolNode' && !(parent?.type === 'FunctionNode' && path === 'fn')) {
      const name = (node as SymbolNode).name;
      if (name.length > 1 && !CONSTANTS.has(name) && !GREEK_LETTERS.includes(name) && !ALLOWED_FUNCTIONS.has(name)) {
        return product([...name].map((letter) => new SymbolNode(letter)));
      }
    }
    if (node.type === 'FunctionNode') {
      const call = node as unknown as { fn: { name?: string }; args: MathNode[] };
      const name = call.fn.name;
      if (name !== undefined && !ALLOWED_FUNCTIONS.has(name) && /^[a-zA-Z]+$/.test(name) && call.args.length === 1) {
        const factors: MathNode[] = [...name].map((letter) => new SymbolNode(letter));
        return product([...factors, new ParenthesisNode(rewriteProducts(call.args[0]!))]);
      }
    }
    return node;
  });
}

function product(factors: MathNode[]): MathNode {
  const { OperatorNode } = mathjs();
  return factors.reduce((left, right) => new OperatorNode('*', 'multiply', [left, right]));
}

