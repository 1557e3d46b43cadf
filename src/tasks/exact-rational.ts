import type { ConstantNode, MathNode, OperatorNode } from 'mathjs';

/** An exact rational `numerator / denominator`, the denominator positive, in lowest terms. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

/** Exponents beyond this are not expanded exactly (`2^100000` would be a huge bigint). */
const MAX_EXPONENT = 64n;
/**
 * Largest numerator or denominator kept exact: 4,096 bits (1,233 digits). An exponent cap alone
 * does not bound size, as powers nest: `((9^64)^64)^64` has 16 million digits, and one more level
 * passes the largest bigint (issue 23). Beyond it the value is left to floating point.
 */
const MAX_RATIONAL_BITS = 4096;
const bitLength = (value: bigint) => (value < 0n ? -value : value).toString(16).length * 4;
const DECIMAL_LITERAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

function rational(numerator: bigint, denominator: bigint): Rational | undefined {
  if (denominator === 0n) return undefined;
  // Operands are at most MAX_RATIONAL_BITS, so a product is at most twice that: checked here, before the gcd.
  if (bitLength(numerator) > 2 * MAX_RATIONAL_BITS || bitLength(denominator) > 2 * MAX_RATIONAL_BITS) return undefined;
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = gcd(numerator, denominator) || 1n;
  const reduced = { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor };
  return bitLength(reduced.numerator) > MAX_RATIONAL_BITS || bitLength(reduced.denominator) > MAX_RATIONAL_BITS ? undefined : reduced;
}

/**
 * The exact value of a decimal literal as written (`0.3333333333` is 3333333333/10^10, never
 * 1/3); undefined for anything else. Handmade because neither mathjs numbers (binary doubles)
 * nor its Fraction (which rounds a double to the nearest simple fraction) keep what was written.
 */
export function decimalRational(text: string): Rational | undefined {
  const match = DECIMAL_LITERAL.exec(text.trim());
  if (match === null) return undefined;
  const [, sign = '', integer = '', fraction = '', exponentText = '0'] = match;
  if (integer === '' && fraction === '') return undefined;
  const exponent = BigInt(exponentText) - BigInt(fraction.length);
  if (exponent > MAX_EXPONENT * 8n || exponent < -MAX_EXPONENT * 8n) return undefined;
  const digits = BigInt(`${integer}${fraction}` || '0') * (sign === '-' ? -1n : 1n);
  return exponent >= 0n ? rational(digits * 10n ** exponent, 1n) : rational(digits, 10n ** -exponent);
}

/**
 * The exact rational value of a mathjs tree made only of numbers, `+ - * /`, signs, parentheses
 * and integer powers (`\frac{1}{3}`, `(2/3)^2`, `-1.25`); undefined when it holds anything else
 * (a variable, `sqrt`, `pi`), divides by zero, has an exponent beyond 64, or a numerator or
 * denominator beyond 4,096 bits.
 */
export function exactRational(node: MathNode): Rational | undefined {
  switch (node.type) {
    case 'ConstantNode': {
      const value = (node as ConstantNode).value;
      // A number prints as its shortest round-trip decimal, which is the literal the answer wrote.
      return typeof value === 'number' && Number.isFinite(value) ? decimalRational(String(value)) : undefined;
    }
    case 'ParenthesisNode':
      return exactRational((node as unknown as { content: MathNode }).content);
    case 'OperatorNode':
      return operator(node as OperatorNode);
    default:
      return undefined;
  }
}

function operator(node: OperatorNode): Rational | undefined {
  const values = node.args.map(exactRational);
  if (values.some((value) => value === undefined)) return undefined;
  const [a, b] = values as Rational[];
  switch (node.fn) {
    case 'unaryMinus':
      return a && { numerator: -a.numerator, denominator: a.denominator };
    case 'unaryPlus':
      return a;
    case 'add':
      return a && b && rational(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);
    case 'subtract':
      return a && b && rational(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator);
    case 'multiply':
      return a && b && rational(a.numerator * b.numerator, a.denominator * b.denominator);
    case 'divide':
      return a && b && rational(a.numerator * b.denominator, a.denominator * b.numerator);
    case 'pow': {
      if (!a || !b || b.denominator !== 1n) return undefined;
      const exponent = b.numerator < 0n ? -b.numerator : b.numerator;
      if (exponent > MAX_EXPONENT) return undefined;
      // Checked before expanding: the power has about exponent times the bits of its base.
      if (BigInt(Math.max(bitLength(a.numerator), bitLength(a.denominator)) - 4) * exponent > BigInt(MAX_RATIONAL_BITS)) return undefined;
      const power = rational(a.numerator ** exponent, a.denominator ** exponent);
      return power && (b.numerator < 0n ? rational(power.denominator, power.numerator) : power);
    }
    default:
      return undefined;
  }
}

export function sameRational(a: Rational, b: Rational): boolean {
  return a.numerator === b.numerator && a.denominator === b.denominator;
}
