"""A harness that calls a custom reward function the way verl's reward managers do.

Written for orchrm's tests from verl's published behaviour at HEAD (nothing here is verl code):

- `custom_reward_function.path/name` is loaded and wrapped so that
  `custom_reward_function.reward_kwargs` are merged into every call's keyword arguments;
- legacy path (`reward_model.use_reward_loop=False`):
  - `naive`: one call per sample, `fn(data_source=, solution_str=, ground_truth=, extra_info=)`;
  - `batch`: one call per batch, `fn(data_sources=, solution_strs=, ground_truths=, extra_infos=,
    **reward_model.reward_kwargs)`, with numpy object arrays for the data sources and extra
    infos, each extra_info given `rollout_reward_scores`; the result is a list of scores;
- reward-loop path (`reward_model.use_reward_loop=True`, the default at HEAD): the manager
  class is looked up by `reward_model.reward_manager` in the reward-loop registry (`naive`,
  `dapo`, `remote`, `rate_limited`; an unknown name raises `ValueError("Unknown reward
  manager: <name>")`), and every sample is scored concurrently, a sync function in the event
  loop's thread pool, with `extra_info` given `num_turns` and `rollout_reward_scores`, plus
  `reward_router_address` and `reward_model_tokenizer` when a reward model is enabled. A dict
  result's `score` is the reward, a number is the reward itself.

Usage: python3 verl_reward_managers.py JOBS.json; prints one {"scores", "error"} per job.
A job is {"module", "function", "path", "reward_manager", "samples", "reward_kwargs"?,
"manager_kwargs"?, "router_address"?, "env"?}, with "path" "legacy" or "reward-loop"; "env" is set in
os.environ while the job runs.
"""
import asyncio
import functools
import importlib.util
import inspect
import json
import os
import sys

import numpy as np

REWARD_LOOP_MANAGERS = ("naive", "dapo", "remote", "rate_limited")
LEGACY_MANAGERS = ("naive", "batch", "dapo", "prime", "rate_limited")


def load_function(module_path, name, reward_kwargs):
    spec = importlib.util.spec_from_file_location("custom_reward_module", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    raw = getattr(module, name)

    def merged(*args, **kwargs):
        return raw(*args, **{**kwargs, **reward_kwargs})

    return merged, inspect.iscoroutinefunction(raw)


def score_of(result):
    return result["score"] if isinstance(result, dict) else result


def legacy(job, fn):
    manager = job["reward_manager"]
    if manager not in LEGACY_MANAGERS:
        raise ValueError("Unknown reward manager: %s" % manager)
    samples = job["samples"]
    if manager == "batch":
        extras = np.array([dict(sample["extra_info"], rollout_reward_scores={}) for sample in samples], dtype=object)
        scores = fn(
            data_sources=np.array([sample["data_source"] for sample in samples], dtype=object),
            solution_strs=[sample["solution_str"] for sample in samples],
            ground_truths=[sample["ground_truth"] for sample in samples],
            extra_infos=extras,
            **job.get("manager_kwargs", {}),
        )
        return [float(score_of(score)) for score in scores]
    return [
        float(score_of(fn(data_source=sample["data_source"], solution_str=sample["solution_str"], ground_truth=sample["ground_truth"], extra_info=sample["extra_info"])))
        for sample in samples
    ]


async def reward_loop(job, fn, is_async):
    manager = job["reward_manager"]
    if manager not in REWARD_LOOP_MANAGERS:
        raise ValueError("Unknown reward manager: %s" % manager)
    router = job.get("router_address")
    extra_kwargs = {"reward_router_address": router, "reward_model_tokenizer": None} if router else {}
    loop = asyncio.get_running_loop()

    async def one(sample):
        extra_info = dict(sample["extra_info"], num_turns=None, rollout_reward_scores={})
        call = functools.partial(fn, data_source=sample["data_source"], solution_str=sample["solution_str"], ground_truth=sample["ground_truth"], extra_info=extra_info, **extra_kwargs)
        result = await call() if is_async else await loop.run_in_executor(None, call)
        return float(score_of(result))

    return await asyncio.gather(*(one(sample) for sample in job["samples"]))


def run_job(job):
    saved = dict(os.environ)
    os.environ.update(job.get("env", {}))
    try:
        fn, is_async = load_function(job["module"], job["function"], job.get("reward_kwargs", {}))
        scores = legacy(job, fn) if job["path"] == "legacy" else asyncio.run(reward_loop(job, fn, is_async))
        return {"scores": scores, "error": None}
    except Exception as error:
        return {"scores": None, "error": "%s: %s" % (type(error).__name__, error)}
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        jobs = json.load(file)
    json.dump([run_job(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()
