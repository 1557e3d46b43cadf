import { LRUCache } from 'lru-cache';
import { decimalRational, sameRational } from './exact-rational.js';
import { latexToMathjs } from './latex-to-mathjs.js';
import { MAX_GRADED_ANSWER_CHARS } from './normalize-math-answer.js';
import { safeExpression, type ComplexValue, type SafeExpression } from './safe-expression.js';
import { structureOf, type Structure } from './math-structure.js';

/** How two answers were found equal: as strings, as numbers, or as expressions in variables. */
export type EquivalenceKind = 'string' | 'numeric' | 'symbolic';

/**
 * Relative tolerance of numeric comparison between expressions: floating-point noise only, so
 * `\sqrt{117}` matches `3\sqrt{13}`. A decimal with a fractional part is held to its exact value
 * instead (see `compareDecimal`): a rounded `0.3333333333` does not match 1/3, as MATH answers
 * are exact.
 */
export const RELATIVE_TOLERANCE = 1e-9;
/** `v * 10^k` is only checked for being whole while doubles still hold it to well under 1. */
const MAX_SCALED_MAGNITUDE = 2 ** 40;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const ABSOLUTE_TOLERANCE = 1e-9;
/** Deterministic sample values for variables: no symmetric pairs, no integers, none near poles of common answers. */
const SAMPLE_POINTS: readonly number[] = [0.5377, 1.8339, -2.2588, 0.8622, 0.3188, -1.3077, 2.7694, -0.4336];
/** Points needed with a defined value on both sides before expressions count as equal. */
const MIN_VALID_POINTS = 4;
/**
 * Most parts of a structure compared part by part (elements of a set, cells of a matrix). A set is
 * matched in any order, so its parts are compared pairwise; 32 bounds that at 1,024 comparisons
 * (MATH-500's largest gold answer structure, a 2x2 matrix, has 4).
 */
const MAX_STRUCTURE_PARTS = 32;

/**
 * Decides whether two normalised math answers (see `normalizeMathAnswer`) are equivalent, and
 * how: equal strings; structures compared part by part (tuples and intervals in order with the
 * same brackets, sets and bare solution lists in any order, `a \pm b` as the pair, unions of
 * intervals, matrices element-wise, equations up to a non-zero factor); otherwise both are
 * read as expressions through mathjs and compared numerically (exactly for two decimals, else within a relative 1e-9) when they have no
 * variables, or at eight fixed sample points of their variables when they do.
 * Returns undefined when they are not equivalent. Answers over `MAX_GRADED_ANSWER_CHARS`, and
 * structures of more than 32 parts, are compared as strings only, so the cost is bounded.
 *
 * @example
 * mathEquivalence('\\frac{1}{2}', '0.5'); // 'numeric'
 * mathEquivalence('x^2+1', 'x^2-1'); // undefined
 */
export function mathEquivalence(gold: string, predicted: string): EquivalenceKind | undefined {
  if (gold === predicted) return 'string';
  // Beyond this only string equality counts; it bounds the cost of everything below.
  if (gold.length > MAX_GRADED_ANSWER_CHARS || predicted.length > MAX_GRADED_ANSWER_CHARS) return undefined;
  if (/^[a-zA-Z ]+$/.test(gold) && gold.toLowerCase() === predicted.toLowerCase()) return 'string';
  // Two decimal literals compare digit by digit: doubles cannot tell 1450000 from 1450001 within tolerance, or long integers apart at all.
  const goldDecimal = canonicalDecimal(gold);
  const predictedDecimal = canonicalDecimal(predicted);
  if (goldDecimal !== undefined && predictedDecimal !== undefined) return goldDecimal === predictedDecimal ? 'numeric' : undefined;
  if (goldDecimal?.includes('.')) return compareDecimal(goldDecimal, predicted);
  if (predictedDecimal?.includes('.')) return compareDecimal(predictedDecimal, gold);
  const goldStructure = structureOf(gold);
  const predictedStructure = structureOf(predicted);
  if (goldStructure.kind !== 'scalar' || predictedStructure.kind !== 'scalar') return compareStructures(goldStructure, predictedStructure);
  return compareExpressions(gold, predicted);
}

/**
 * A decimal with a fractional part against another answer: equal only when the other is exactly
 * that number. Rational arithmetic (`\frac{1}{8}`, `(1/2)^3`) is compared exactly; anything else
 * (`\sqrt{2.25}`, `\cos 0`) must give a value that is the decimal up to floating-point noise and
 * has no more digits than the decimal, so `0.7071067811865476` is not `\frac{\sqrt{2}}{2}`.
 */
function compareDecimal(decimal: string, other: string): EquivalenceKind | undefined {
  const expression = parseExpression(other);
  const exactDecimal = decimalRational(decimal);
  if (expression === undefined || exactDecimal === undefined || expression.variables.length > 0) return undefined;
  const exact = expression.exact();
  if (exact !== undefined) return sameRational(exact, exactDecimal) ? 'numeric' : undefined;
  const value = expression.evaluate({});
  if (value === undefined || value.im !== 0 || !Number.isFinite(value.re)) return undefined;
  // The decimal times 10^digits is a whole number; so must the value be, and the same one.
  const digits = decimal.length - decimal.indexOf('.') - 1;
  const scaled = value.re * 10 ** digits;
  if (Math.abs(scaled) > MAX_SCALED_MAGNITUDE) return undefined;
  const whole = Math.round(scaled);
  const target = (exactDecimal.numerator * 10n ** BigInt(digits)) / exactDecimal.denominator;
  return Math.abs(scaled - whole) <= 1e-6 && BigInt(whole) === target ? 'numeric' : undefined;
}

function compareStructures(gold: Structure, predicted: Structure): EquivalenceKind | undefined {
  if (gold.kind === 'scalar' || predicted.kind === 'scalar') return undefined;
  if (gold.kind === 'equation' && predicted.kind === 'equation') {
    return compareExpressions(`(${gold.parts[0]})-(${gold.parts[1]})`, `(${predicted.parts[0]})-(${predicted.parts[1]})`, true);
  }
  const ordered = gold.kind !== 'set' && gold.kind !== 'list';
  // A set of solutions may be written `\{a, b\}`, `a, b` or `x \pm y`: all unordered collections.
  const sameKind = gold.kind === predicted.kind || (!ordered && (predicted.kind === 'set' || predicted.kind === 'list'));
  const comparable =
    sameKind && gold.open === predicted.open && gold.close === predicted.close && gold.parts.length === predicted.parts.length && gold.rows === predicted.rows;
  // A column vector may be written as a tuple: `(1,2)` and a 2x1 pmatrix hold the same parts.
  const vectorPair = (gold.kind === 'matrix') !== (predicted.kind === 'matrix') && [gold, predicted].every((side) => side.kind === 'matrix' || (side.kind === 'tuple' && side.open === '('));
  if (!comparable && !(vectorPair && gold.parts.length === predicted.parts.length)) return undefined;
  if (gold.parts.length > MAX_STRUCTURE_PARTS) return undefined;
  return ordered ? compareInOrder(gold.parts, predicted.parts) : compareAnyOrder(gold.parts, predicted.parts);
}

function compareInOrder(gold: readonly string[], predicted: readonly string[]): EquivalenceKind | undefined {
  const kinds = gold.map((part, index) => mathEquivalence(part, predicted[index]!));
  return kinds.every((kind) => kind !== undefined) ? strongest(kinds) : undefined;
}

/** Each gold part matches a different predicted part (a perfect matching found greedily on a tiny list). */
function compareAnyOrder(gold: readonly string[], predicted: readonly string[]): EquivalenceKind | undefined {
  const unused = predicted.map((_, index) => index);
  const kinds: EquivalenceKind[] = [];
  for (const part of gold) {
    let kind: EquivalenceKind | undefined;
    const found = unused.findIndex((index) => (kind = mathEquivalence(part, predicted[index]!)) !== undefined);
    if (found === -1 || kind === undefined) return undefined;
    kinds.push(kind);
    unused.splice(found, 1);
  }
  return strongest(kinds);
}

function strongest(kinds: readonly EquivalenceKind[]): EquivalenceKind {
  return kinds.includes('symbolic') ? 'symbolic' : kinds.includes('numeric') ? 'numeric' : 'string';
}

/** Compares two expressions; with `proportional`, any non-zero constant ratio counts (equations). */
function compareExpressions(gold: string, predicted: string, proportional = false): EquivalenceKind | undefined {
  const goldExpression = parseExpression(gold);
  const predictedExpression = parseExpression(predicted);
  if (goldExpression === undefined || predictedExpression === undefined) return undefined;
  // Over the union of variables: `\sin^2x+\cos^2x` equals `1`, while `a` and `b` differ at the sample points.
  const variables = [...new Set([...goldExpression.variables, ...predictedExpression.variables])].sort();
  if (variables.length === 0 && !proportional) {
    const a = goldExpression.evaluate({});
    const b = predictedExpression.evaluate({});
    return a !== undefined && b !== undefined && close(a, b) ? 'numeric' : undefined;
  }
  let valid = 0;
  let ratio: ComplexValue | undefined;
  for (const [pointIndex] of SAMPLE_POINTS.entries()) {
    const scope = Object.fromEntries(variables.map((name, variableIndex) => [name, SAMPLE_POINTS[(pointIndex + variableIndex * 3) % SAMPLE_POINTS.length]!]));
    const a = goldExpression.evaluate(scope);
    const b = predictedExpression.evaluate(scope);
    if (a === undefined || b === undefined || !finite(a) || !finite(b)) continue;
    valid++;
    if (!proportional) {
      if (!close(a, b)) return undefined;
      continue;
    }
    if (magnitude(b) < ABSOLUTE_TOLERANCE) {
      if (magnitude(a) >= ABSOLUTE_TOLERANCE) return undefined;
      continue;
    }
    const current = divide(a, b);
    if (ratio === undefined) ratio = current;
    else if (!close(ratio, current)) return undefined;
  }
  if (proportional && (ratio === undefined || magnitude(ratio) < ABSOLUTE_TOLERANCE)) return undefined;
  return valid >= MIN_VALID_POINTS ? (variables.length === 0 ? 'numeric' : 'symbolic') : undefined;
}

/**
 * Parsed expressions by text: a set's parts are compared pairwise, and graders compare one gold
 * answer with many predictions, so each text is converted and compiled once. Bounded (least
 * recently used evicted first); `'unparsable'` records a text that does not parse.
 */
const parsedExpressions = new LRUCache<string, SafeExpression | 'unparsable'>({ max: 1024 });

function parseExpression(text: string): SafeExpression | undefined {
  let parsed = parsedExpressions.get(text);
  if (parsed === undefined) {
    const expression = latexToMathjs(text);
    parsed = (expression === undefined ? undefined : safeExpression(expression)) ?? 'unparsable';
    parsedExpressions.set(text, parsed);
  }
  return parsed === 'unparsable' ? undefined : parsed;
}

/** `-007.50` -> `-7.5`; undefined when the text is not a plain decimal number. */
function canonicalDecimal(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (match === null) return undefined;
  const [, sign = '', integerPart = '', fraction = ''] = match;
  if (integerPart === '' && fraction === '') return undefined;
  const integer = integerPart.replace(/^0+(?=\d)/, '') || '0';
  const trimmed = fraction.replace(/0+$/, '');
  const body = trimmed === '' ? integer : `${integer}.${trimmed}`;
  return body === '0' || sign !== '-' ? body : `-${body}`;
}

function close(a: ComplexValue, b: ComplexValue): boolean {
  if (!finite(a) || !finite(b)) return a.re === b.re && a.im === b.im;
  const difference = Math.hypot(a.re - b.re, a.im - b.im);
  return difference <= ABSOLUTE_TOLERANCE + RELATIVE_TOLERANCE * Math.max(magnitude(a), magnitude(b));
}

function finite(value: ComplexValue): boolean {
  return Number.isFinite(value.re) && Number.isFinite(value.im);
}

function magnitude(value: ComplexValue): number {
  return Math.hypot(value.re, value.im);
}

function divide(a: ComplexValue, b: ComplexValue): ComplexValue {
  const denominator = b.re * b.re + b.im * b.im;
  return { re: (a.re * b.re + a.im * b.im) / denominator, im: (a.im * b.re - a.re * b.im) / denominator };
}
