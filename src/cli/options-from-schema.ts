import { Option, type Command } from 'commander';
import { z } from 'zod';
import { SystemError, UserError } from '../core/index.js';

/**
 * What a config field may say about its flag, in its zod metadata (`.meta({...})`):
 * - `description`: the help text (`.describe()` sets it too);
 * - `flag`: the flag's name when it is not the key in kebab case (`groupSize` is `--group`);
 * - `placeholder`: the value's name in the help (default `n` for integers, `x` for numbers, `value` otherwise;
 *   ending in `...`, a list flag takes several values);
 * - `hidden`: left out of the help (a flag kept only to explain its replacement);
 * - `negation`: for a setting that is a string or `false`, the help of its `--no-<flag>`.
 *
 * A setting that is a string or `true` (`z.union([z.string(), z.literal(true)])`) is a flag whose
 * value may be left out (`--resume [run-id]`); one that is a string or `false` is a flag with a
 * value and its `--no-<flag>` (`--layout <file>`, `--no-layout`).
 */
const FlagMetadataSchema = z.object({
  description: z.string().optional(),
  flag: z.string().regex(/^[a-z][a-z0-9-]*$/).optional(),
  placeholder: z.string().min(1).optional(),
  hidden: z.boolean().optional(),
  negation: z.string().optional(),
});

/** A flag's value was refused by its setting's schema; the message names the flag, the rule and the value. */
export class InvalidFlagError extends UserError {
  // Commander reports an argument parser's error as the command-line mistake it is (message,
  // help hint, this exit code) when it carries these two fields, as its own InvalidArgumentError does.
  // Thrown in an action (`SchemaOptions.parse`), runAction reports it as any UserError (exit code 2).
  readonly code = 'commander.invalidArgument';
  readonly exitCode = 2;
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

type FieldKind = 'integer' | 'number' | 'boolean' | 'string' | 'enum' | 'list' | 'string-or-true' | 'string-or-false';

interface FlagField {
  key: string;
  flag: string;
  /** The flag's option, and its `--no-<flag>` for a string-or-false setting. */
  options: Option[];
}

/** The options of a zod object schema's fields, and the reader that turns commander's parsed options back into the schema's output. */
export interface SchemaOptions<Schema extends z.ZodObject> {
  readonly options: readonly Option[];
  /** Validates commander's parsed options through the schema (keys as the schema names them); a refused one throws `InvalidFlagError`. */
  parse(parsed: Record<string, unknown>): z.output<Schema>;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The schema under defaults and optionals, with whether a value may be left out and the default. */
function unwrap(field: z.ZodType): { inner: z.ZodType; optional: boolean; defaultValue: unknown } {
  let inner = field;
  let optional = false;
  let defaultValue: unknown;
  for (;;) {
    if (inner instanceof z.ZodDefault) {
      defaultValue = inner.def.defaultValue;
      inner = inner.def.innerType as z.ZodType;
    } else if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.def.innerType as z.ZodType;
    } else {
      return { inner, optional, defaultValue };
    }
  }
}

function kindOf(inner: z.ZodType, key: string): FieldKind {
  if (inner instanceof z.ZodNumber) return inner.isInt ? 'integer' : 'number';
  if (inner instanceof z.ZodBoolean) return 'boolean';
  if (inner instanceof z.ZodString) return 'string';
  if (inner instanceof z.ZodEnum) return 'enum';
  if (inner instanceof z.ZodArray && inner.def.element instanceof z.ZodString) return 'list';
  if (inner instanceof z.ZodUnion) {
    const [text, literal, ...rest] = inner.def.options as readonly z.ZodType[];
    if (rest.length === 0 && text instanceof z.ZodString && literal instanceof z.ZodLiteral && literal.def.values.length === 1) {
      const [value] = literal.def.values;
      if (value === true) return 'string-or-true';
      if (value === false) return 'string-or-false';
    }
  }
  throw new SystemError(`optionsFromSchema: setting ${key} is a ${inner.def.type}; only numbers, booleans, strings, enums and lists of strings become flags`);
}

/** The numeric bounds of a field, from its checks (the inner number's and any added around it). */
function numberRule(field: z.ZodType, inner: z.ZodType, kind: 'integer' | 'number'): string {
  let low: { value: number; inclusive: boolean } | undefined;
  let high: { value: number; inclusive: boolean } | undefined;
  for (const schema of [inner, field]) {
    for (const check of schema.def.checks ?? []) {
      const def = check._zod.def as { check: string; value?: unknown; inclusive?: boolean };
      if (typeof def.value !== 'number') continue;
      const bound = { value: def.value, inclusive: def.inclusive ?? true };
      if (def.check === 'greater_than' && (low === undefined || bound.value >= low.value)) low = bound;
      if (def.check === 'less_than' && (high === undefined || bound.value <= high.value)) high = bound;
    }
  }
  // An integer above 0 is one of at least 1, said so.
  if (kind === 'integer' && low !== undefined && !low.inclusive && Number.isInteger(low.value)) low = { value: low.value + 1, inclusive: true };
  if (kind === 'integer' && high !== undefined && !high.inclusive && Number.isInteger(high.value)) high = { value: high.value - 1, inclusive: true };
  const noun = kind === 'integer' ? 'an integer' : 'a number';
  if (low?.inclusive && high?.inclusive) return `${noun} from ${low.value} to ${high.value}`;
  const bounds = [low && `${low.inclusive ? '>=' : '>'} ${low.value}`, high && `${high.inclusive ? '<=' : '<'} ${high.value}`].filter(Boolean);
  return [noun, bounds.join(' and ')].filter(Boolean).join(' ');
}

/**
 * Parses one flag's value through a schema of a number or a string: the one way a flag value is
 * checked, for generated options and for a command's own. A blank value is no number.
 * @example new Option('--port <n>').argParser(parseFlagValue('--port', z.number().int().min(0).max(65535)))
 */
export function parseFlagValue<Schema extends z.ZodType>(flag: string, field: Schema): (text: string) => z.output<Schema> {
  const { inner } = unwrap(field);
  const kind = kindOf(inner, flag);
  const rule = kind === 'integer' || kind === 'number' ? numberRule(field, inner, kind) : undefined;
  return (text) => {
    const parsed = field.safeParse(rule === undefined ? text : text.trim() === '' ? Number.NaN : Number(text));
    if (parsed.success) return parsed.data;
    throw new InvalidFlagError(flag, rule === undefined ? `${flag}: ${parsed.error.issues[0]?.message}, got "${text}"` : `${flag} must be ${rule}, got "${text}"`);
  };
}

function optionOf(key: string, field: z.ZodType): FlagField {
  const metadata = FlagMetadataSchema.parse(z.globalRegistry.get(field) ?? {});
  const description = metadata.description ?? field.description ?? '';
  const flag = `--${metadata.flag ?? kebab(key)}`;
  const { inner, optional, defaultValue } = unwrap(field);
  const kind = kindOf(inner, key);
  if (kind === 'boolean') {
    // A switch on by default is turned off with --no-<flag>, as commander spells it.
    const option = defaultValue === true ? new Option(`--no-${flag.slice(2)}`, description) : new Option(flag, description).default(false);
    return { key, flag, options: [option.hideHelp(metadata.hidden ?? false)] };
  }
  const placeholder = metadata.placeholder ?? (kind === 'integer' ? 'n' : kind === 'number' ? 'x' : 'value');
  const option = new Option(kind === 'string-or-true' ? `${flag} [${placeholder}]` : `${flag} <${placeholder}>`, description).hideHelp(metadata.hidden ?? false);
  if (kind === 'enum') option.choices((inner as z.ZodEnum).options.map(String));
  // A list flag takes several values (`<files...>`, commander collects them) or is repeated, one value each time.
  else if (kind === 'list') {
    if (!placeholder.endsWith('...')) option.argParser((text: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), text]);
  }
  else option.argParser(parseFlagValue(flag, field));
  if (defaultValue !== undefined) option.default(defaultValue);
  else if (!optional) option.makeOptionMandatory();
  // Commander gives the attribute false for --no-<flag>, and leaves it unset when neither is given.
  const negation = kind === 'string-or-false' ? [new Option(`--no-${flag.slice(2)}`, metadata.negation ?? '').hideHelp(metadata.hidden ?? false)] : [];
  return { key, flag, options: [option, ...negation] };
}

/**
 * The commander options of a zod object schema: one per field, named after the key in kebab
 * case (or its metadata's `flag`), its help text the field's description, its default the
 * field's default, choices from an enum, and numbers parsed and checked by the field's own
 * schema, so a setting is declared once, in its config.
 *
 * @example
 * const grpoFlags = optionsFromSchema(GrpoConfigSchema.pick({ steps: true, groupSize: true }));
 * addOptions(command, grpoFlags).action((raw) => runGrpo(environment, { config: grpoFlags.parse(raw) }));
 */
export function optionsFromSchema<Schema extends z.ZodObject>(schema: Schema): SchemaOptions<Schema> {
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => optionOf(key, field));
  return {
    options: fields.flatMap((field) => field.options),
    parse(parsed) {
      const values = Object.fromEntries(fields.map(({ key, options: [option] }) => [key, parsed[option!.attributeName()]]).filter(([, value]) => value !== undefined));
      const result = schema.safeParse(values);
      if (result.success) return result.data;
      const issue = result.error.issues[0]!;
      const field = fields.find(({ key }) => key === issue.path[0]);
      const flag = field?.flag ?? 'the flags';
      throw new InvalidFlagError(flag, `${flag}: ${issue.message}; see --help`);
    },
  };
}

/** Adds the options to a command, in the schema's order. */
export function addOptions(command: Command, flags: SchemaOptions<z.ZodObject>): Command {
  for (const option of flags.options) command.addOption(option);
  return command;
}
