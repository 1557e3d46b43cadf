"""A harness that calls a remote reward server the way OpenRLHF's trainers do.

Written for orchrm's tests from OpenRLHF's published behaviour (nothing here is OpenRLHF code):

- "batch" (OpenRLHF 0.7.1 to 0.9.0, `RemoteRewardModel.get_rewards`): the whole rollout batch
  in one request per reward URL (the batch split evenly over the URLs), sent with
  `requests.post(json=..., timeout=180)`, `raise_for_status()`, up to 5 attempts one second
  apart, then an exception that ends the run. The replies are concatenated and split back per
  sample, as `update_samples_with_rewards` does with `rewards`, `scores` and `extra_logs`.
- "per-sample" (OpenRLHF 0.9.1 to 0.11.0, `SingleTurnAgentExecutor`): one request per
  generated sample, `{"query": [q], "prompts": [p], "labels": [l]}`, from concurrent
  coroutines, each with its own `aiohttp.ClientSession(timeout=ClientTimeout(total=180))`,
  `raise_for_status()`, 5 attempts one second apart; a failure is logged and the sample's
  reward stays None. Each reply's `extra_logs` are kept per sample. With "missing_reward_ends_step"
  (0.11.0, `SamplesGenerator` and `ExperienceMaker`), a sample left with reward None ends the
  training step: its Experience has no `rewards` tensor, and the batch cannot be assembled.

Usage: python3 openrlhf_remote_reward_client.py JOBS.json, where JOBS.json holds a list of
{"mode", "urls", "queries", "prompts", "labels", "retry_sleep_s"?, "concurrency"?,
"missing_reward_ends_step"?}; prints one
{"rewards", "scores", "extra_logs", "log", "error", "requests"} per job, as a JSON list.
"""
import asyncio
import json
import sys
import time

ATTEMPTS = 5
TIMEOUT_S = 180


def post_batch(url, payload, retry_sleep_s, log):
    import requests

    for _ in range(ATTEMPTS):
        try:
            response = requests.post(url=url, json=payload, headers={"Content-Type": "application/json"}, timeout=TIMEOUT_S)
            response.raise_for_status()
            return response.json()
        except requests.RequestException as error:
            # What OpenRLHF logs: the exception text, never the body.
            log.append("Request error, please check: %s" % error)
        time.sleep(retry_sleep_s)
    raise RuntimeError("Request error for %d times, returning None. Please check the API server." % ATTEMPTS)


def run_batch(job, log):
    urls = job["urls"]
    queries, prompts, labels = job["queries"], job["prompts"], job["labels"]
    share = (len(queries) + len(urls) - 1) // len(urls)
    infos = []
    for index, url in enumerate(urls):
        part = slice(index * share, min((index + 1) * share, len(queries)))
        infos.append(post_batch(url, {"query": queries[part], "prompts": prompts[part], "labels": labels[part]}, job.get("retry_sleep_s", 1.0), log))
    import numpy as np

    rewards = np.concatenate([np.asarray(info["rewards"], dtype=np.float32) for info in infos])
    scores = np.concatenate([np.asarray(info["scores"], dtype=np.float32) for info in infos]) if "scores" in infos[0] else rewards
    extra_logs = {}
    if "extra_logs" in infos[0]:
        for key in infos[0]["extra_logs"]:
            extra_logs[key] = np.concatenate([np.asarray(info["extra_logs"][key], dtype=np.float32) for info in infos]).tolist()
    if len(rewards) != len(queries):
        raise RuntimeError("got %d rewards for %d queries" % (len(rewards), len(queries)))
    return rewards.tolist(), scores.tolist(), extra_logs, len(urls)


async def run_per_sample(job, log):
    import aiohttp

    url = job["urls"][0]
    semaphore = asyncio.Semaphore(job.get("concurrency", 64))
    retry_sleep_s = job.get("retry_sleep_s", 1.0)

    async def one(query, prompt, label):
        payload = {"query": [query], "prompts": [prompt], "labels": [label]}
        async with semaphore:
            for _ in range(ATTEMPTS):
                try:
                    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S)) as session:
                        async with session.post(url, json=payload) as response:
                            response.raise_for_status()
                            return await response.json()
                except aiohttp.ClientError as error:
                    log.append("Request error, please check: %s" % error)
                await asyncio.sleep(retry_sleep_s)
            log.append("[SingleTurnExecutor] Failed to fetch reward from remote RM: Request error for %d times" % ATTEMPTS)
            return None

    infos = await asyncio.gather(*(one(q, p, l) for q, p, l in zip(job["queries"], job["prompts"], job["labels"])))
    rewards, scores, extra_logs = [], [], {}
    for info in infos:
        if info is None:
            rewards.append(None)
            scores.append(None)
            continue
        score = info.get("scores")
        rewards.append(info.get("rewards")[0])
        scores.append((score if score is not None else info.get("rewards"))[0])
        for key, value in (info.get("extra_logs") or {}).items():
            extra_logs.setdefault(key, []).append(value[0])
    if job.get("missing_reward_ends_step"):
        for index, reward in enumerate(rewards):
            if reward is None:
                raise TypeError("expected Tensor as element %d in argument 0, but got NoneType (sample %d has no reward)" % (index, index))
    return rewards, scores, extra_logs, len(infos)


def run_job(job):
    log = []
    result = {"rewards": None, "scores": None, "extra_logs": None, "log": log, "error": None, "requests": 0}
    try:
        if job["mode"] == "batch":
            rewards, scores, extra_logs, requests_sent = run_batch(job, log)
        else:
            rewards, scores, extra_logs, requests_sent = asyncio.run(run_per_sample(job, log))
        result.update(rewards=rewards, scores=scores, extra_logs=extra_logs, requests=requests_sent)
    except Exception as error:  # the run would end here
        result["error"] = "%s: %s" % (type(error).__name__, error)
    return result


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        jobs = json.load(file)
    json.dump([run_job(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()
