"""Renders chat templates the way transformers' `apply_chat_template(..., tokenize=False)` does.

Written for orchrm's tests from transformers' documented behaviour (nothing here is
transformers code): a sandboxed Jinja2 environment with `trim_blocks` and `lstrip_blocks` and
the loop-controls extension; a `tojson` filter that keeps non-ASCII text; the globals
`raise_exception` and `strftime_now`; the tokenizer's special tokens, then the keyword
arguments, then `messages` and `add_generation_prompt` as template variables. It is the
reference the JavaScript renderer (@huggingface/jinja) is checked against.

Usage: python3 render_chat_template.py JOBS.json, where a job is {"config", "messages",
"add_generation_prompt", "variables"?, "now": "YYYY-MM-DD"}; prints one {"text", "error"} per job.
"""
import datetime
import json
import sys

from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise ValueError(message)


def token_text(token):
    return token["content"] if isinstance(token, dict) else token


def render(job):
    with open(job["config"], encoding="utf-8") as file:
        config = json.load(file)
    now = datetime.datetime.strptime(job["now"], "%Y-%m-%d")
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)
    template = env.from_string(config["chat_template"])
    special = {key: token_text(config[key]) for key in ("bos_token", "eos_token", "unk_token", "pad_token") if config.get(key) is not None}
    variables = {**special, **job.get("variables", {})}
    return template.render(messages=job["messages"], add_generation_prompt=job["add_generation_prompt"], **variables)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        jobs = json.load(file)
    results = []
    for job in jobs:
        try:
            results.append({"text": render(job), "error": None})
        except Exception as error:
            results.append({"text": None, "error": "%s: %s" % (type(error).__name__, error)})
    json.dump(results, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
