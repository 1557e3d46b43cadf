"""A harness that runs `python3 -m verl.trainer.main_ppo <overrides>` as far as the reward: it
resolves the Hydra overrides against the config keys of a given verl release, loads the reward
function those keys name (or falls back to verl's default scorer, as verl does), and calls it
the way that release's reward manager does.

Written for orchrm's tests from verl's source at each release tag (verl-project/verl; nothing
here is verl code):

- 0.4.1 to 0.6.1: `custom_reward_function.{path,name,reward_kwargs}` and
  `reward_model.reward_manager` (default `naive`); managers `naive`, `batch`, `dapo`, `prime`.
- 0.7.0: the same keys, and `reward_model.use_reward_loop` (default True): the reward loop's
  managers are `naive`, `dapo`, `remote`; `use_reward_loop=False` gives the legacy ones above.
- 0.7.1 and later (PRs 5237 and 5255): the reward loop only, configured under `reward.`:
  `reward.custom_reward_function.{path,name,reward_kwargs}` and `reward.reward_manager.name`
  (default `naive`; `naive`, `dapo`, `gdpo`, `remote`, `rate_limited`; `batch` is gone:
  "Unknown reward manager: batch"). `reward_model.use_reward_loop` is no key any more, so Hydra
  refuses the override. The old `custom_reward_function.*` and `reward_model.reward_manager`
  keys stay in the config (legacy_reward_impl.yaml); 0.7.1 to 0.8.0's `main_ppo` migrates them
  to the new ones (`migrate_legacy_reward_impl`), 0.9.0's no longer does (PR 6710), so there
  they are accepted and ignored.
- With no custom function, verl's `default_compute_score` scores by `data_source`, and raises
  NotImplementedError for one it does not know.
- Calls: a merged-kwargs wrapper adds `reward_kwargs` to every call. Per-sample managers call
  `fn(data_source=, solution_str=, ground_truth=, extra_info=)`; the reward loop runs each sample
  concurrently (a sync function in the event loop's thread pool), adds `num_turns` and
  `rollout_reward_scores` to extra_info, and `reward_router_address` and
  `reward_model_tokenizer` when a reward model is enabled; the legacy `batch` manager calls
  `fn(data_sources=, solution_strs=, ground_truths=, extra_infos=, **reward_model.reward_kwargs)`
  once, with numpy object arrays. A dict result's `score` is the reward.

Usage: python3 verl_reward_managers.py JOBS.json; prints one {"scores", "error", "function"} per
job. A job is {"verl": "0.9.0", "overrides": ["key=value", ...], "samples", "router_address"?,
"env"?}; "function" names what scored the samples ("custom:<name>" or "default").
"""
import asyncio
import functools
import importlib.util
import inspect
import json
import os
import sys

import numpy as np


def version_tuple(text):
    return tuple(int(part) for part in text.split(".")[:3])


def config_keys(version):
    """The override keys a release's config has, and their defaults."""
    legacy = {"custom_reward_function.path": None, "custom_reward_function.name": None, "reward_model.reward_manager": None}
    if version < (0, 7, 0):
        return {**legacy, "custom_reward_function.name": "compute_score", "reward_model.reward_manager": "naive"}
    if version < (0, 7, 1):
        return {**legacy, "custom_reward_function.name": "compute_score", "reward_model.reward_manager": "naive", "reward_model.use_reward_loop": True}
    return {**legacy, "reward.custom_reward_function.path": None, "reward.custom_reward_function.name": "compute_score", "reward.reward_manager.name": "naive"}


def parse_value(text):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "none"):
        return None
    return text


def resolve(version, overrides):
    config = config_keys(version)
    for override in overrides:
        key, _, value = override.partition("=")
        if key not in config:
            leaf = key.split(".")[-1]
            raise KeyError("Could not override '%s'. To append to your config use +%s. Key '%s' is not in struct" % (key, override, leaf))
        config[key] = parse_value(value)
    if version >= (0, 7, 1) and version < (0, 9, 0):
        # main_ppo's migrate_legacy_reward_impl: old keys, when set, replace the new ones.
        if config["custom_reward_function.path"] is not None:
            config["reward.custom_reward_function.path"] = config["custom_reward_function.path"]
            config["reward.custom_reward_function.name"] = config["custom_reward_function.name"]
        if config["reward_model.reward_manager"] is not None:
            config["reward.reward_manager.name"] = config["reward_model.reward_manager"]
    if version >= (0, 7, 1):
        return {"path": config["reward.custom_reward_function.path"], "name": config["reward.custom_reward_function.name"], "manager": config["reward.reward_manager.name"], "reward_loop": True}
    return {"path": config["custom_reward_function.path"], "name": config["custom_reward_function.name"], "manager": config["reward_model.reward_manager"], "reward_loop": config.get("reward_model.use_reward_loop", False)}


def default_compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    raise NotImplementedError("Reward function is not implemented for data_source=%r" % data_source)


def load_function(path, name):
    spec = importlib.util.spec_from_file_location("custom_reward_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    raw = getattr(module, name)
    return (lambda *args, **kwargs: raw(*args, **kwargs)), inspect.iscoroutinefunction(raw)


def score_of(result):
    return result["score"] if isinstance(result, dict) else result


def legacy(manager, fn, samples):
    if manager not in ("naive", "batch", "dapo", "prime"):
        raise ValueError("Unknown reward manager: %s" % manager)
    if manager == "batch":
        extras = np.array([dict(sample["extra_info"], rollout_reward_scores={}) for sample in samples], dtype=object)
        scores = fn(
            data_sources=np.array([sample["data_source"] for sample in samples], dtype=object),
            solution_strs=[sample["solution_str"] for sample in samples],
            ground_truths=[sample["ground_truth"] for sample in samples],
            extra_infos=extras,
        )
        return [float(score_of(score)) for score in scores]
    return [
        float(score_of(fn(data_source=sample["data_source"], solution_str=sample["solution_str"], ground_truth=sample["ground_truth"], extra_info=sample["extra_info"])))
        for sample in samples
    ]


async def reward_loop(version, manager, fn, is_async, samples, router):
    managers = ("naive", "dapo", "remote") if version < (0, 7, 1) else ("naive", "dapo", "gdpo", "remote", "rate_limited")
    if manager not in managers:
        raise ValueError("Unknown reward manager: %s" % manager)
    extra_kwargs = {"reward_router_address": router, "reward_model_tokenizer": None} if router else {}
    loop = asyncio.get_running_loop()

    async def one(sample):
        extra_info = dict(sample["extra_info"], num_turns=None, rollout_reward_scores={})
        call = functools.partial(fn, data_source=sample["data_source"], solution_str=sample["solution_str"], ground_truth=sample["ground_truth"], extra_info=extra_info, **extra_kwargs)
        result = await call() if is_async else await loop.run_in_executor(None, call)
        return float(score_of(result))

    return await asyncio.gather(*(one(sample) for sample in samples))


def run_job(job):
    saved = dict(os.environ)
    os.environ.update(job.get("env", {}))
    function = None
    try:
        version = version_tuple(job["verl"])
        settings = resolve(version, job["overrides"])
        if settings["path"]:
            fn, is_async = load_function(settings["path"], settings["name"])
            function = "custom:%s" % settings["name"]
        else:
            fn, is_async = default_compute_score, False
            function = "default"
        if settings["reward_loop"]:
            scores = asyncio.run(reward_loop(version, settings["manager"], fn, is_async, job["samples"], job.get("router_address")))
        else:
            scores = legacy(settings["manager"], fn, job["samples"])
        return {"scores": scores, "error": None, "function": function}
    except Exception as error:
        return {"scores": None, "error": "%s: %s" % (type(error).__name__, error), "function": function}
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        jobs = json.load(file)
    json.dump([run_job(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()
