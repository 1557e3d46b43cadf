"""A harness that reads preference JSONL files the way TRL's RewardTrainer and OpenRLHF's
`train_rm` do, and reports the text each row becomes, or the error the engine would raise.

Written for orchrm's tests from the engines' published behaviour (nothing here is their code):

- Loading (both engines go through Hugging Face `datasets.load_dataset("json")`): every row
  gets every column of the file, `None` where a line lacks the key.
- TRL `RewardTrainer` (HEAD): when the first row is not conversational (a conversational value
  is a list of {"role", "content"} dicts under prompt/chosen/rejected), `eos_token` is appended
  to chosen and rejected unless they end with it; then `prompt + chosen` (strings or message
  lists); conversational rows go through the chat template, others are text. The collator
  stacks `margin` whenever the batch's first row has that key, so a None fails there.
- OpenRLHF `RewardDataset` (0.10.x-0.11.0): with `apply_chat_template`, and a prompt_key, prompt
  = template(prompt messages, generation prompt) and chosen = template(prompt + chosen)[len(prompt):];
  without a prompt_key, chosen = template(chosen); without the template, prompt = data[prompt_key]
  (or "" when no prompt_key), optionally `input_template.format(prompt)`. The text is
  `(prompt + chosen).rstrip("\\n")` plus " " + eos_token unless it ends with it. The margin is
  the `margin` column when present and not None, else 0.

The chat template is the job's "chat_template_config" (a tokenizer_config.json, rendered with
Jinja2 as `apply_chat_template(tokenize=False)` renders it, by
src/serve/test-fixtures/render_chat_template.py), else ChatML; a string where messages are
expected fails the way a Jinja loop over a string does.

Usage: python3 preference_dataset_loaders.py JOBS.json; each job is {"file", "engine", "eos_token",
"prompt_key"?, "chosen_key"?, "rejected_key"?, "apply_chat_template"?, "input_template"?,
"batch_size"?, "chat_template_config"?}; prints one {"chosen", "rejected", "margins", "error"} per job.
"""
import importlib.util
import json
import os
import sys

import numpy as np


def load_json_rows(path):
    with open(path, encoding="utf-8") as file:
        rows = [json.loads(line) for line in file if line.strip()]
    columns = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    return [{key: row.get(key) for key in columns} for row in rows]


def chatml(messages, add_generation_prompt=False):
    text = ""
    for message in messages:
        text += "<|im_start|>" + message["role"] + "\n" + message["content"] + "<|im_end|>\n"
    if add_generation_prompt:
        text += "<|im_start|>assistant\n"
    return text


def template_of(job):
    """The job's chat template as a function (messages, add_generation_prompt) -> text."""
    config = job.get("chat_template_config")
    if not config:
        return chatml
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "serve", "test-fixtures", "render_chat_template.py")
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    spec = importlib.util.spec_from_file_location("render_chat_template", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return lambda messages, add_generation_prompt=False: module.render({"config": config, "messages": messages, "add_generation_prompt": add_generation_prompt, "now": "2026-07-26"})


def is_conversational(example):
    for key in ("prompt", "chosen", "rejected", "completion", "messages"):
        if key in example:
            value = example[key]
            return isinstance(value, list) and len(value) > 0 and isinstance(value[0], dict) and "role" in value[0]
    return False


def trl(job, rows):
    render = template_of(job)
    eos = job["eos_token"]
    if not is_conversational(rows[0]):
        for row in rows:
            if not row["chosen"].endswith(eos):
                row["chosen"] = row["chosen"] + eos
            if "rejected" in row and not row["rejected"].endswith(eos):
                row["rejected"] = row["rejected"] + eos
    chosen, rejected = [], []
    for row in rows:
        if "prompt" in row:
            row["chosen"] = row["prompt"] + row["chosen"]
            row["rejected"] = row["prompt"] + row["rejected"]
        if is_conversational(row):
            chosen.append(render(row["chosen"]))
            rejected.append(render(row["rejected"]))
        else:
            chosen.append(row["chosen"])
            rejected.append(row["rejected"])
    margins = None
    size = job.get("batch_size", 8)
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        if "margin" in batch[0]:
            values = [example["margin"] for example in batch]
            # torch.tensor(values, dtype=torch.float) refuses a None (numpy would make it NaN).
            for value in values:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise TypeError("must be real number, not %s" % type(value).__name__)
            margins = (margins or []) + np.asarray(values, dtype=np.float32).tolist()
    return chosen, rejected, margins


def openrlhf(job, rows):
    render = template_of(job)
    eos = job["eos_token"]
    prompt_key = job.get("prompt_key")
    chosen_key = job.get("chosen_key", "chosen")
    rejected_key = job.get("rejected_key", "rejected")
    template = job.get("input_template")
    chosen_texts, rejected_texts, margins = [], [], []
    for data in rows:
        if job.get("apply_chat_template"):
            if prompt_key:
                prompt = render(data[prompt_key], add_generation_prompt=True)
                chosen = render(data[prompt_key] + data[chosen_key])[len(prompt) :]
                rejected = render(data[prompt_key] + data[rejected_key])[len(prompt) :]
            else:
                prompt = ""
                chosen = render(data[chosen_key])
                rejected = render(data[rejected_key])
        else:
            prompt = data[prompt_key] if prompt_key else ""
            if prompt_key and template:
                prompt = template.format(prompt)
            chosen, rejected = data[chosen_key], data[rejected_key]
        margins.append(data["margin"] if data.get("margin") is not None else 0)
        for text, out in ((prompt + chosen, chosen_texts), (prompt + rejected, rejected_texts)):
            text = text.rstrip("\n")
            if not text.endswith(eos):
                text += " " + eos
            out.append(text)
    return chosen_texts, rejected_texts, margins


def run_job(job):
    try:
        rows = load_json_rows(job["file"])
        chosen, rejected, margins = (trl if job["engine"] == "trl" else openrlhf)(job, rows)
        return {"chosen": chosen, "rejected": rejected, "margins": margins, "error": None}
    except Exception as error:
        return {"chosen": None, "rejected": None, "margins": None, "error": "%s: %s" % (type(error).__name__, error)}


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        jobs = json.load(file)
    json.dump([run_job(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()
