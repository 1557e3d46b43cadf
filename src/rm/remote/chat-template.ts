import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { z } from 'zod';
import { UserError, zodIssues } from '../../core/index.js';

/** One message of a conversation, as `tokenizer.apply_chat_template` takes it. */
export interface ChatTemplateMessage {
  role: string;
  content: string;
}

export interface ChatTemplateRenderOptions {
  /** Append the template's generation prompt (the opening of an assistant turn). @default false */
  addGenerationPrompt?: boolean;
  /** More template variables, as `apply_chat_template(..., **kwargs)` passes them (`enable_thinking`, `date_string`, ...). */
  variables?: Record<string, unknown>;
}

/** A model's own chat template, rendered as `tokenizer.apply_chat_template(messages, tokenize=False)` renders it. */
export interface ChatTemplate {
  /** Where the template was read from, for messages. */
  readonly source: string;
  /** The tokenizer's BOS and EOS tokens, when its config names them. */
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;
  render(messages: readonly ChatTemplateMessage[], options?: ChatTemplateRenderOptions): string;
}

export interface ChatTemplateOptions {
  /** The clock `strftime_now` reads (Llama 3.2 and gpt-oss templates put today's date in the system turn). @default the current time */
  now?: () => Date;
  /** Which template of a config that holds several named ones (`chat_template: [{name, template}]`). @default 'default' */
  name?: string;
}

/** Largest tokenizer_config.json (or chat_template.jinja) read; Llama 3's is about 50 KB. @unit bytes */
export const MAX_CHAT_TEMPLATE_FILE_BYTES = 16 * 1024 * 1024;

const SpecialTokenSchema = z.union([z.string(), z.looseObject({ content: z.string() }), z.null()]).optional();

/** The fields of a Hugging Face `tokenizer_config.json` a chat template needs; the rest is ignored. */
const TokenizerConfigSchema = z.looseObject({
  chat_template: z
    .union([z.string(), z.array(z.looseObject({ name: z.string(), template: z.string() }))], 'chat_template must be a string or a list of {name, template}')
    .optional(),
  bos_token: SpecialTokenSchema,
  eos_token: SpecialTokenSchema,
  unk_token: SpecialTokenSchema,
  pad_token: SpecialTokenSchema,
});

/**
 * Reads a model's chat template from its `tokenizer_config.json` (field `chat_template`, with
 * `bos_token` and `eos_token`), or from a `chat_template.jinja` file (newer checkpoints keep the
 * template there, beside a `tokenizer_config.json` whose special tokens are then read too).
 * Throws a UserError naming the file and what is wrong with it.
 *
 * @example
 * const template = readChatTemplate('/models/Qwen2.5-7B-Instruct/tokenizer_config.json');
 * template.render([{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true })
 * // '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n'
 */
export function readChatTemplate(path: string, options: ChatTemplateOptions = {}): ChatTemplate {
  if (path.endsWith('.jinja')) {
    const template = readSmallFile(path);
    const configPath = join(dirname(path), 'tokenizer_config.json');
    let config: unknown = {};
    try {
      config = parseConfig(readSmallFile(configPath), configPath);
    } catch (error) {
      if (!(error instanceof MissingFileError)) throw error;
    }
    return chatTemplateFromConfig({ ...(config as object), chat_template: template }, path, options);
  }
  const config = parseConfig(readSmallFile(path), path) as Record<string, unknown>;
  if (config.chat_template === undefined) {
    // Newer checkpoints keep the template in chat_template.jinja beside the config.
    const sibling = join(dirname(path), 'chat_template.jinja');
    try {
      return chatTemplateFromConfig({ ...config, chat_template: readSmallFile(sibling) }, sibling, options);
    } catch (error) {
      if (!(error instanceof MissingFileError)) throw error;
    }
  }
  return chatTemplateFromConfig(config, path, options);
}

/**
 * A chat template from the parsed content of a `tokenizer_config.json` (`source` names it in
 * messages). The template is parsed here, so a template the renderer cannot read fails at once.
 */
export function chatTemplateFromConfig(config: unknown, source: string, options: ChatTemplateOptions = {}): ChatTemplate {
  const { now = () => new Date(), name = 'default' } = options;
  const parsed = TokenizerConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new UserError(`${source} is not a tokenizer config with a chat template: ${zodIssues(parsed.error).map((issue) => `${issue.path || 'config'}: ${issue.message}`).join('; ')}`);
  }
  const { chat_template: templates, bos_token, eos_token, unk_token, pad_token } = parsed.data;
  if (templates === undefined) {
    throw new UserError(`${source} has no chat_template (nor a chat_template.jinja beside it); point at the tokenizer_config.json of a chat model, or at its chat_template.jinja`);
  }
  const text = typeof templates === 'string' ? templates : templates.find((entry) => entry.name === name)?.template;
  if (text === undefined) {
    const names = (templates as { name: string }[]).map((entry) => entry.name).join(', ');
    throw new UserError(`${source} holds chat templates named ${names}, none named "${name}"; pass the name to use`);
  }
  let template: Template;
  try {
    template = new Template(text);
  } catch (error) {
    throw new UserError(`the chat template of ${source} cannot be parsed (${(error as Error).message})`);
  }
  const specialTokens = Object.fromEntries(
    Object.entries({ bos_token, eos_token, unk_token, pad_token }).flatMap(([key, token]) => {
      const value = tokenText(token);
      return value === undefined ? [] : [[key, value]];
    }),
  );
  return {
    source,
    bosToken: tokenText(bos_token),
    eosToken: tokenText(eos_token),
    render(messages, renderOptions = {}) {
      try {
        // Template.render declares the library's own globals, and a variable may not be declared
        // twice, so its `strftime_now` (the real clock, the machine's locale) could not be
        // replaced: the same globals are declared here, with a `strftime_now` on `now`.
        const environment = new Environment();
        const variables: Record<string, unknown> = {
          ...JINJA_GLOBALS,
          strftime_now: (format: string) => strftime(now(), format),
          // As apply_chat_template passes them: special tokens, then keyword arguments, then the conversation.
          ...specialTokens,
          ...renderOptions.variables,
          messages: messages.map((message) => ({ role: message.role, content: message.content })),
          add_generation_prompt: renderOptions.addGenerationPrompt ?? false,
        };
        for (const [name, value] of Object.entries(variables)) environment.set(name, value);
        return String(new Interpreter(environment).run(template.parsed).value);
      } catch (error) {
        throw new UserError(`the chat template of ${source} failed on this conversation (roles ${messages.map((message) => message.role).join(', ')}): ${(error as Error).message}`);
      }
    },
  };
}

/** What a client's `chatTemplate` option holds: the path of a tokenizer_config.json (or chat_template.jinja), or a template already read. */
export type ChatTemplateInput = string | ChatTemplate;

/**
 * Reads a client's `chatTemplate` option. The names `chatml` and `llama3`, which once selected
 * hand-written layouts, are refused with a message saying what to give instead: those layouts
 * differed from the real templates (issue 24: 0 of 24 scores matched for Qwen2.5).
 */
export function chatTemplateOption(input: ChatTemplateInput, client: string): ChatTemplate {
  if (typeof input !== 'string') return input;
  if (input === 'chatml' || input === 'llama3') {
    throw new UserError(
      `${client}: chatTemplate "${input}" named a hand-written layout, which differs from real templates (Qwen2.5's default system prompt, Qwen3's empty think block, Llama 3.1's date header); ` +
        "give the path of the trained model's tokenizer_config.json (or chat_template.jinja) instead",
    );
  }
  return readChatTemplate(input);
}

/** A token given as a string, or as an AddedToken object (`{"content": "<s>", ...}`, as Llama 2's config has it). */
function tokenText(token: z.output<typeof SpecialTokenSchema>): string | undefined {
  if (token === undefined || token === null) return undefined;
  return typeof token === 'string' ? token : token.content;
}

class MissingFileError extends UserError {}

/** Reads a text file after checking its size, so a wrong path to a huge file fails before it is read. */
function readSmallFile(path: string): string {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MissingFileError(`${path} does not exist; point at the model's tokenizer_config.json (or chat_template.jinja)`);
    throw new UserError(`cannot read ${path} (${code ?? (error as Error).message})`);
  }
  try {
    const { size } = fstatSync(descriptor);
    if (size > MAX_CHAT_TEMPLATE_FILE_BYTES) {
      throw new UserError(`${path} is ${size} bytes, more than the ${MAX_CHAT_TEMPLATE_FILE_BYTES} a tokenizer config or chat template may have; is it the right file?`);
    }
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const count = readSync(descriptor, buffer, read, size - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}

function parseConfig(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UserError(`${path} is not valid JSON (${(error as Error).message}); point at the model's tokenizer_config.json`);
  }
}

/** The globals @huggingface/jinja's Template.render declares (and transformers' environment has), but `strftime_now`. */
const JINJA_GLOBALS: Record<string, unknown> = {
  false: false,
  true: true,
  none: null,
  False: false,
  True: true,
  None: null,
  raise_exception: (message: unknown) => {
    throw new Error(String(message));
  },
  range: (start: number, stop?: number, step = 1): number[] => {
    const [from, to] = stop === undefined ? [0, start] : [start, stop];
    if (step === 0) throw new Error('range() step must not be zero');
    const values: number[] = [];
    for (let value = from; step > 0 ? value < to : value > to; value += step) values.push(value);
    return values;
  },
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Python's `datetime.now().strftime(format)` in the C locale, for the directives chat templates
 * use (`%d %b %Y` in Llama 3.2's, `%Y-%m-%d` in gpt-oss's). Hand-written: @huggingface/jinja's
 * own `strftime_now` formats months in the machine's locale and reads the real clock.
 */
function strftime(date: Date, format: string): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return format.replace(/%[YmdbBHMS%]/g, (directive) => {
    switch (directive) {
      case '%Y':
        return String(date.getFullYear());
      case '%m':
        return pad(date.getMonth() + 1);
      case '%d':
        return pad(date.getDate());
      case '%b':
        return MONTHS[date.getMonth()]!.slice(0, 3);
      case '%B':
        return MONTHS[date.getMonth()]!;
      case '%H':
        return pad(date.getHours());
      case '%M':
        return pad(date.getMinutes());
      case '%S':
        return pad(date.getSeconds());
      default:
        return '%';
    }
  });
}
