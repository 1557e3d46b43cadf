import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { addOptions, InvalidFlagError, optionsFromSchema, parseFlagValue } from './options-from-schema.js';

const Schema = z.object({
  groupSize: z.number().int().min(2).default(8).meta({ flag: 'group', description: 'plans per task' }),
  learningRate: z.number().positive().default(0.5).describe('step size'),
  clipEpsilon: z.number().min(0).max(1).default(0.2).meta({ flag: 'clip', placeholder: 'eps', description: 'clipping range' }),
  head: z.enum(['linear', 'mlp']).default('linear').meta({ description: 'reward head' }),
  reward: z.enum(['rm', 'execution']).meta({ placeholder: 'kind', description: 'reward source' }),
  name: z.string().regex(/^[a-z]+$/, 'use lower-case letters').optional().meta({ placeholder: 'name', description: 'checkpoint name' }),
  tune: z.boolean().default(true).meta({ description: 'tune hyperparameters' }),
  json: z.boolean().default(false).meta({ description: 'print JSON' }),
});
const flags = optionsFromSchema(Schema);

function parse(args: string[]): z.output<typeof Schema> {
  const command = addOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => undefined }), flags);
  command.parse(args, { from: 'user' });
  return flags.parse(command.opts());
}

describe('optionsFromSchema', () => {
  it('names each flag after its key in kebab case, or its metadata, with the description as help', () => {
    expect(flags.options.map((option) => option.flags)).toEqual([
      '--group <n>',
      '--learning-rate <x>',
      '--clip <eps>',
      '--head <value>',
      '--reward <kind>',
      '--name <name>',
      '--no-tune',
      '--json',
    ]);
    expect(flags.options.map((option) => option.description)).toEqual(['plans per task', 'step size', 'clipping range', 'reward head', 'reward source', 'checkpoint name', 'tune hyperparameters', 'print JSON']);
  });

  it('takes defaults, choices and mandatory flags from the schema', () => {
    const [group, learningRate, , head, reward, name] = flags.options;
    expect(group!.defaultValue).toBe(8);
    expect(learningRate!.defaultValue).toBe(0.5);
    expect(head!.argChoices).toEqual(['linear', 'mlp']);
    expect(reward!.mandatory).toBe(true);
    expect(name!.mandatory).toBe(false);
    expect(name!.defaultValue).toBeUndefined();
    expect(parse(['--reward', 'rm'])).toEqual({ groupSize: 8, learningRate: 0.5, clipEpsilon: 0.2, head: 'linear', reward: 'rm', tune: true, json: false });
  });

  it('parses integers, numbers, booleans and strings into the schema keys', () => {
    expect(parse(['--reward', 'execution', '--group', '4', '--learning-rate', '0.25', '--clip', '0', '--head', 'mlp', '--name', 'abc', '--no-tune', '--json'])).toEqual({
      groupSize: 4,
      learningRate: 0.25,
      clipEpsilon: 0,
      head: 'mlp',
      reward: 'execution',
      name: 'abc',
      tune: false,
      json: true,
    });
  });

  it.each([
    [['--group', '1'], '--group', '--group must be an integer >= 2, got "1"'],
    [['--group', '2.5'], '--group', '--group must be an integer >= 2, got "2.5"'],
    [['--learning-rate', '0'], '--learning-rate', '--learning-rate must be a number > 0, got "0"'],
    [['--learning-rate', 'fast'], '--learning-rate', '--learning-rate must be a number > 0, got "fast"'],
    [['--clip', '2'], '--clip', '--clip must be a number from 0 to 1, got "2"'],
    [['--name', 'A1'], '--name', '--name: use lower-case letters, got "A1"'],
  ])('refuses %j with a UserError naming the flag and the rule', (args, flag, message) => {
    const option = flags.options.find((candidate) => candidate.long === flag)!;
    expect(() => option.parseArg!(args[1]!, undefined)).toThrow(InvalidFlagError);
    expect(() => option.parseArg!(args[1]!, undefined)).toThrow(message);
    // Commander reports it as a usage error (exit code 2, as --help says) with the same message.
    expect(() => parse(['--reward', 'rm', ...args])).toThrow(expect.objectContaining({ code: 'commander.invalidArgument', exitCode: 2, message: expect.stringContaining(message) }));
  });

  it('checks the parsed flags against the whole schema, naming the flag', () => {
    const error = (() => {
      try {
        flags.parse({ reward: 'rm', clip: 5 });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidFlagError);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ flag: '--clip' });
    expect((error as Error).message).toMatch(/^--clip: .*see --help$/);
  });

  it('makes a string-or-true setting a flag whose value may be left out, and a string-or-false one a flag with its --no-<flag>', () => {
    const schema = z.object({
      resume: z.union([z.string(), z.literal(true)]).optional().meta({ placeholder: 'run-id', description: 'continue a run' }),
      layout: z.union([z.string().min(1), z.literal(false)]).optional().meta({ placeholder: 'file', description: 'layout file', negation: 'write no layout file' }),
    });
    const optional = optionsFromSchema(schema);
    expect(optional.options.map((option) => [option.flags, option.description])).toEqual([
      ['--resume [run-id]', 'continue a run'],
      ['--layout <file>', 'layout file'],
      ['--no-layout', 'write no layout file'],
    ]);
    const run = (args: string[]) => {
      const command = addOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => undefined }), optional);
      command.parse(args, { from: 'user' });
      return optional.parse(command.opts());
    };
    expect(run([])).toEqual({});
    expect(run(['--resume'])).toEqual({ resume: true });
    expect(run(['--resume', 'run_1', '--layout', 'x.layout'])).toEqual({ resume: 'run_1', layout: 'x.layout' });
    expect(run(['--no-layout'])).toEqual({ layout: false });
    expect(() => run(['--layout', ''])).toThrow(expect.objectContaining({ code: 'commander.invalidArgument', message: expect.stringContaining('--layout: ') }));
  });
});

describe('parseFlagValue', () => {
  it('checks a command\'s own flag the same way, with the same error', () => {
    const port = parseFlagValue('--port', z.number().int().min(0).max(65535));
    expect(port('8080')).toBe(8080);
    expect(() => port('70000')).toThrow(new InvalidFlagError('--port', '--port must be an integer from 0 to 65535, got "70000"'));
    expect(() => port('')).toThrow('--port must be an integer from 0 to 65535, got ""');
    expect(parseFlagValue('--k', z.number().int().min(1))('3')).toBe(3);
    expect(() => parseFlagValue('--k', z.number().int().min(1))('0')).toThrow('--k must be an integer >= 1, got "0"');
    expect(() => parseFlagValue('--rate', z.number().min(0).max(1))(' ')).toThrow('--rate must be a number from 0 to 1, got " "');
    expect(() => parseFlagValue('--subsets', z.number().int().positive())('0')).toThrow('--subsets must be an integer >= 1, got "0"');
  });
});
