"""Report metrics as rewards for RL trainers: one weighted reward in [0, 1], higher is better.

``RewardScorer("radsem:0.7,crepe:0.3")`` builds the metrics once (a ``Scorer``) and turns each
pair's scores into one reward: every metric is mapped onto [0, 1] with higher better (a score
in [0, 1] stays as it is; CREPE's error count e becomes 1 / (1 + e)), then the weighted mean
is taken. A pair gets a reward only when every metric scored it: a mean over the metrics that
happened to work would change what is being optimised from one sample to the next.

A completion that cannot be read while its reference can (empty, not English, a text that
states nothing about a patient, such as "Ok." or a refusal) is the generator's failure: it gets
0.0, the floor, from every adapter and every metric of the reward (``not_a_report``), so saying
nothing never escapes the penalty. Any other pair that cannot be scored (the
reference out of a metric's scope or unreadable, a failed model call) returns what the trainer
can take:

- TRL (``trl_reward``, ``trl_async_reward``): ``None``. TRL turns it into NaN, averages with
  ``nanmean`` and, since TRL 1.6, leaves a prompt whose rewards are all ``None`` out of the
  group baseline, so the sample teaches nothing instead of something wrong.
- verl and OpenRLHF (``radscope.engine.rewards.file``) and the server's OpenRLHF endpoint: they need a
  number, so ``not_scored`` (0.0 unless set): the floor of the reward. A reference out of a
  metric's scope makes every completion of its group 0.0, whose group advantage is then 0.
  Each also reports per sample whether it was scored (``scored`` 1.0 / 0.0).
"""
from __future__ import annotations

import asyncio
import math
import os
import re
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from radscope.engine.api import Scorer
from radscope.engine.eligibility.readable import CANNOT_READ, no_finding, unreadable_reason
from radscope.engine.io.reports import ReportPair

TrlReward = Callable[..., list[float | None]]


def parse_weights(metrics: str | Sequence[str] | Mapping[str, float]) -> dict[str, float]:
    """``"radsem:0.7,crepe:0.3"``, ``["radsem", "crepe"]`` or a mapping -> metric -> weight
    (weight 1 where none is given)."""
    if isinstance(metrics, Mapping):
        items = [(str(k), float(v)) for k, v in metrics.items()]
    else:
        parts = metrics.split(",") if isinstance(metrics, str) else list(metrics)
        items = []
        for part in (p.strip() for p in parts):
            if not part:
                continue
            name, _, weight = part.partition(":")
            try:
                items.append((name.strip().lower(), float(weight) if weight else 1.0))
            except ValueError:
                raise ValueError(f"weight of {name.strip()!r} is {weight!r}, not a number") from None
    if not items:
        raise ValueError("no metric given for the reward")
    bad = [f"{n}={w}" for n, w in items if not (math.isfinite(w) and w > 0)]
    if bad:
        raise ValueError(f"reward weights must be positive numbers: {', '.join(bad)}")
    names = [n for n, _ in items]
    if len(set(names)) != len(names):
        raise ValueError(f"a metric is named twice in the reward: {', '.join(names)}")
    return dict(items)


def not_a_report(reference: str, candidate: str) -> str | None:
    """``cannot read: candidate report …`` when the completion is no report while its reference
    is one (``radscope.engine.eligibility.readable.no_finding``: off-topic text, a refusal, a
    question, the instruction echoed, keyboard mash). Such a completion earns the floor from
    every metric of a reward, word-overlap ones included: "Write the findings and impression of
    this chest radiograph." shares words with a report (ROUGE-L 0.16 against the gallery's
    references), and a policy must not learn that echoing its prompt pays."""
    if unreadable_reason(candidate):  # empty or wordless: the input error says so, with the floor
        return None
    reason = no_finding(ReportPair("reward", reference, candidate))
    return reason if reason and reason.startswith(CANNOT_READ + "candidate report") else None


def texts_of(value: Any, what: str) -> list[Any]:
    """``value`` as a list of per-sample items: a list or tuple (or a 1-D array). One string is
    refused, not read as its characters, and so is anything else that is not one item per sample."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{what} must be a list with one text per sample, not one {type(value).__name__} "
                        "(it would be read as its characters)")
    if hasattr(value, "ndim") and hasattr(value, "tolist") and value.ndim == 1:  # numpy (verl's columns)
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{what} must be a list with one text per sample, not {type(value).__name__}")
    return list(value)


def strings_of(value: Any, what: str) -> list[str]:
    """``texts_of`` whose every item is a string: None is refused, not scored as the text "None"."""
    items = texts_of(value, what)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{what}[{i}] is {type(item).__name__}, not a string")
    return items


def one_length(**lists: Sequence[Any]) -> int:
    """The common length of the named per-sample lists; a ValueError naming each length otherwise."""
    counts = [f"{len(items)} {name}" for name, items in lists.items()]
    if len({len(items) for items in lists.values()}) > 1:
        raise ValueError(f"{', '.join(counts[:-1])} and {counts[-1]}: one of each per sample")
    return len(next(iter(lists.values()), ()))


def not_scored_value(value: Any, source: str = "not_scored") -> float:
    """The reward a sample that cannot be scored gets: a finite number. NaN or infinity would turn
    the trainer's group mean and every advantage of the group into NaN."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{source} must be a number, not {value!r}") from None
    if isinstance(value, bool) or not math.isfinite(number):
        raise ValueError(f"{source} must be a finite number (the reward of a sample that cannot be "
                         f"scored), not {value!r}")
    return number


def not_scored_or_env(value: Any = None) -> float:
    """``value``, or where it is None the environment's ``RADSCOPE_REWARD_NOT_SCORED`` (default 0.0)."""
    if value is not None:
        return not_scored_value(value)
    return not_scored_value(os.environ.get("RADSCOPE_REWARD_NOT_SCORED", "0"), "RADSCOPE_REWARD_NOT_SCORED")


def completion_failed(status: str, reason: str | None) -> bool:
    """Whether a pair went unscored because of the completion alone: the reference was read and
    the candidate could not be (empty, not English, no finding stated). That completion earns the
    floor, not a skip: a generator must not learn that saying nothing escapes the penalty."""
    return (status == "cannot_read" and (reason or "").startswith(CANNOT_READ + "candidate report")) \
        or (status == "error" and (reason or "").startswith("input: candidate report"))


def unit_reward(value: float, direction: str, value_range: tuple[float, float | None]) -> float:
    """One metric's score on [0, 1], higher better."""
    low, high = value_range
    if high is None:  # unbounded above (an error count): 0 errors -> 1, many -> towards 0
        excess = max(value - low, 0.0)
        return 1.0 / (1.0 + excess) if direction == "lower" else 1.0 - 1.0 / (1.0 + excess)
    share = min(max((value - low) / (high - low), 0.0), 1.0)
    return share if direction == "higher" else 1.0 - share


@dataclass
class RewardBatch:
    """Rewards of one batch, in input order, with why each missing one is missing."""

    rewards: list[float | None]  # None where a metric did not score the pair
    statuses: list[str]  # scored / not_applicable / cannot_read / error (the first metric's that failed)
    reasons: list[str | None]  # "metric: why", None where scored
    per_metric: dict[str, list[float | None]]  # each metric's reward on [0, 1]

    def filled(self, not_scored: float) -> list[float]:
        """The rewards with ``not_scored`` where a pair has none (for trainers that need numbers)."""
        return [not_scored if r is None else r for r in self.rewards]

    def scored(self) -> list[float]:
        return [1.0 if r is not None else 0.0 for r in self.rewards]


class RewardScorer:
    """Metrics built once; ``rewards`` may be called from several threads at once.

    Ray and other process pools send it by value (pickle): what travels is the metrics, weights
    and options, and the receiving process builds (once, ``shared_reward_scorer``) its own. One
    built around a caller's ``scorer=`` cannot travel: that scorer's models belong to its process."""

    def __init__(self, metrics: str | Sequence[str] | Mapping[str, float], *,
                 scorer: Scorer | None = None, workers: int = 1, **options: Any) -> None:
        self.weights = parse_weights(metrics)
        self._spec: dict[str, Any] | None = None
        if scorer is None:
            self._spec = {"workers": workers, **options}
            scorer = Scorer(list(self.weights), workers=workers, **options)
        self.scorer = scorer
        missing = sorted(set(self.weights) - set(self.scorer.metric_names))
        if missing:
            raise ValueError(f"the scorer given does not score {', '.join(missing)}")
        self._cards = {m.name: m.card for m in self.scorer.metrics if m.name in self.weights}

    @property
    def name(self) -> str:
        """A name for trainers' logs: ``radscope_radsem`` or ``radscope_radsem0.7_crepe0.3``."""
        if len(self.weights) == 1:
            return "radscope_" + next(iter(self.weights))
        return "radscope_" + "_".join(f"{n}{w:g}" for n, w in self.weights.items())

    def rewards(self, references: Sequence[str], candidates: Sequence[str]) -> RewardBatch:
        references, candidates = strings_of(references, "references"), strings_of(candidates, "candidates")
        one_length(references=references, candidates=candidates)
        scores = self.scorer.score(references, candidates)
        n = len(scores)
        per_metric: dict[str, list[float | None]] = {}
        statuses, reasons = ["scored"] * n, [None] * n  # type: list[str], list[str | None]
        refused = [not_a_report(r, c) for r, c in zip(references, candidates, strict=True)]
        for i, why in enumerate(refused):
            if why:
                statuses[i], reasons[i] = "cannot_read", why
        for name in self.weights:
            card = self._cards[name]
            values = scores.array(name)
            metric_statuses, metric_reasons = scores.statuses(name), scores.reasons(name)
            per_metric[name] = [
                0.0 if refused[i]
                else unit_reward(float(v), card.direction, card.range) if not math.isnan(v)
                else 0.0 if completion_failed(metric_statuses[i], metric_reasons[i]) else None
                for i, v in enumerate(values)]
            for i in range(n):
                if metric_statuses[i] != "scored" and statuses[i] == "scored":
                    statuses[i], reasons[i] = metric_statuses[i], f"{name}: {metric_reasons[i]}"
        total = sum(self.weights.values())
        rewards: list[float | None] = []
        for i in range(n):
            parts = [(w, per_metric[name][i]) for name, w in self.weights.items()]
            rewards.append(None if any(v is None for _, v in parts)
                           else sum(w * v for w, v in parts if v is not None) / total)
        return RewardBatch(rewards, statuses, reasons, per_metric)

    def close(self) -> None:
        self.scorer.close()

    def __reduce__(self) -> tuple[Callable[..., RewardScorer], tuple[dict[str, float], dict[str, Any]]]:
        if self._spec is None:
            raise TypeError("a RewardScorer built around a given Scorer cannot be sent to another process; "
                            "build it from metric names (RewardScorer(metrics, **options)) and each process "
                            "builds its own")
        return _rebuilt, (dict(self.weights), dict(self._spec))


def _rebuilt(weights: dict[str, float], spec: dict[str, Any]) -> RewardScorer:
    """A RewardScorer unpickled: the receiving process's own, built there once."""
    return shared_reward_scorer(weights, **spec)


_shared: dict[tuple[Any, ...], RewardScorer] = {}
_shared_lock = threading.Lock()


def shared_reward_scorer(metrics: str | Sequence[str] | Mapping[str, float], **options: Any) -> RewardScorer:
    """This process's RewardScorer for ``metrics`` and ``options``, built on first use and kept.

    verl and OpenRLHF call their reward function once per sample, from threads and Ray workers:
    the models load once per process. The cache and its lock live here, in an importable module,
    so that a reward function Ray pickles by value refers to them by name instead of carrying them
    (a lock cannot be pickled)."""
    options = {"workers": 1, **options}
    key = (tuple(parse_weights(metrics).items()), tuple(sorted(options.items())))
    with _shared_lock:
        if key not in _shared:
            _shared[key] = RewardScorer(metrics, **options)
        return _shared[key]


def completion_text(completion: Any, what: str = "a completion") -> str:
    """A TRL completion as text: a string, or (chat datasets) the last assistant message's
    content, itself a string or a list of ``{"type": "text", "text": ...}`` parts. ``what`` names
    it in errors."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and all(isinstance(m, dict) for m in completion):
        replies = [m for m in completion if m.get("role", "assistant") == "assistant"]
        if not replies:
            raise ValueError(f"{what} is a chat that holds no assistant message")
        content = replies[-1].get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(part.get("text", "") for part in content
                           if isinstance(part, dict) and part.get("type", "text") == "text")
    raise TypeError(f"{what} must be a string or a list of chat messages, not {type(completion).__name__}")


def _references(kwargs: Mapping[str, Any], column: str, n: int) -> list[str]:
    if column not in kwargs:
        columns = sorted(k for k in kwargs if k not in ("trainer_state", "log_extra", "log_metric",
                                                          "environments", "completion_ids"))
        raise KeyError(f"the reward needs the reference report in the dataset column {column!r}; "
                       f"the dataset has {columns or 'no other columns'} (set reference_column=)")
    references = [completion_text(r, f"{column}[{i}]")
                  for i, r in enumerate(texts_of(kwargs[column], f"the column {column!r}"))]
    if len(references) != n:
        raise ValueError(f"{len(references)} references in {column!r} for {n} completions")
    return references


def trl_reward(metrics: str | Sequence[str] | Mapping[str, float], *, reference_column: str = "reference",
               not_scored: float | None = None, scorer: RewardScorer | None = None,
               **options: Any) -> TrlReward:
    """A reward for ``GRPOTrainer(reward_funcs=[...])``: called as ``f(prompts=, completions=,
    completion_ids=, **dataset_columns)``, one float (or ``None``, see the module docstring)
    per completion. The reference report comes from the dataset column ``reference_column``."""
    rewarder = scorer if scorer is not None else RewardScorer(metrics, **options)
    fill = None if not_scored is None else not_scored_value(not_scored)

    def reward(prompts: Any = None, completions: Sequence[Any] = (), **kwargs: Any) -> list[float | None]:
        texts = [completion_text(c, f"completions[{i}]")
                 for i, c in enumerate(texts_of(completions, "completions"))]
        batch = rewarder.rewards(_references(kwargs, reference_column, len(texts)), texts)
        return batch.rewards if fill is None else list(batch.filled(fill))

    reward.__name__ = reward.__qualname__ = rewarder.name  # TRL logs rewards/<__name__>/mean
    return reward


def trl_async_reward(metrics: str | Sequence[str] | Mapping[str, float], *, reference_column: str = "reference",
                     not_scored: float | None = None, scorer: RewardScorer | None = None,
                     **options: Any) -> Callable[..., Coroutine[Any, Any, list[float | None]]]:
    """``trl_reward`` as an ``async def``: TRL awaits async rewards together (asyncio.gather),
    so the scoring runs in a thread and other async rewards (remote judges) overlap with it."""
    sync = trl_reward(metrics, reference_column=reference_column, not_scored=not_scored,
                      scorer=scorer, **options)

    async def reward(**kwargs: Any) -> list[float | None]:
        return await asyncio.to_thread(sync, **kwargs)

    reward.__name__ = reward.__qualname__ = sync.__name__
    return reward


# Special tokens a decoded OpenRLHF query keeps (skip_special_tokens=False): padding and
# begin-of-text before the prompt, end-of-turn / end-of-text after the response. Both patterns
# are only ever matched at the start of a string (``match``): the leading tokens on the query,
# the trailing ones on the response reversed. Matched so, reading a query costs time linear in
# its length whatever it holds, while ``(?:\s*SPECIAL)+\s*$`` searched from every offset is
# quadratic on runs of whitespace (a query ending in 24,000 spaces took 11 s).
_SPECIAL = r"(?:<\|[^|<>\s]{1,40}\|>|<｜[^｜<>\s]{1,40}｜>|</?s>|<pad>|<eos>|<bos>|\[PAD\])"
_SPECIAL_REVERSED = r"(?:>\|[^|<>\s]{1,40}\|<|>｜[^｜<>\s]{1,40}｜<|>s/?<|>dap<|>soe<|>sob<|\]DAP\[)"
_LEADING_SPECIALS = re.compile(rf"(?:\s*{_SPECIAL})*\s*")
_TRAILING_SPECIALS_REVERSED = re.compile(rf"(?:\s*{_SPECIAL_REVERSED})*\s*")


def _after_leading_specials(text: str) -> int:
    """Where ``text`` starts once leading whitespace and special tokens are skipped."""
    found = _LEADING_SPECIALS.match(text)
    return found.end() if found else 0


def _without_trailing_specials(text: str) -> str:
    """``text`` without its trailing whitespace and special tokens."""
    found = _TRAILING_SPECIALS_REVERSED.match(text[::-1])
    return text[:len(text) - found.end()] if found else text


def response_from_query(query: str, prompt: str) -> str | None:
    """The response in an OpenRLHF query (prompt + response, special tokens kept): the text
    after the prompt, trailing special tokens and whitespace removed. The query must begin with
    its prompt, leading padding, begin-of-text tokens and whitespace aside on both; None when it
    does not (a prompt truncated by the trainer, a tokenizer whose decoding changes the prompt):
    where the response starts is then unknown, and scoring the prompt's words as the report would
    give a wrong number."""
    begin = _after_leading_specials(query)
    head = prompt[_after_leading_specials(prompt):]
    if not query.startswith(head, begin):
        return None
    return _without_trailing_specials(query[begin + len(head):]).strip()


@dataclass
class OpenRLHFBatch:
    """OpenRLHF samples split into what gets scored: responses of the queries that begin with
    their prompt (``readable`` indexes them; ``without_prompt`` the others), with their labels as
    references."""

    size: int
    readable: list[int]
    references: list[str]
    responses: list[str]

    @classmethod
    def of(cls, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str]) -> OpenRLHFBatch:
        queries, prompts = strings_of(queries, "queries"), strings_of(prompts, "prompts")
        labels = strings_of(labels, "labels")
        one_length(queries=queries, prompts=prompts, labels=labels)
        responses = [response_from_query(q, p) for q, p in zip(queries, prompts, strict=True)]
        readable = [i for i, r in enumerate(responses) if r is not None]
        return cls(len(queries), readable, [labels[i] for i in readable], [responses[i] or "" for i in readable])

    @property
    def without_prompt(self) -> list[int]:
        """The samples whose query does not begin with their prompt."""
        readable = set(self.readable)
        return [i for i in range(self.size) if i not in readable]

    def refusal(self) -> str | None:
        """Why these samples cannot be scored, or None: a query that does not begin with its
        prompt leaves unknown where its response starts. Scoring the prompt's words as a report
        gives a wrong number, and a silent floor would hide a configuration error that repeats
        at every step, so the in-process ``reward_func`` raises this and the server answers 422."""
        missing = self.without_prompt
        if not missing:
            return None
        shown = ", ".join(f"query[{i}]" for i in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        return (f"{shown} does not begin with its prompt (leading special tokens and whitespace aside), so "
                "where the response starts is unknown: send each prompt exactly as it begins its query "
                "(not truncated, decoded as the query was)")

    def reply(self, batch: RewardBatch, not_scored: float) -> dict[str, Any]:
        """OpenRLHF's reply as plain lists (for samples whose queries all begin with their prompt)."""
        not_scored = not_scored_value(not_scored)
        rewards, scored = [not_scored] * self.size, [0.0] * self.size
        for i, value, flag in zip(self.readable, batch.filled(not_scored), batch.scored(), strict=True):
            rewards[i], scored[i] = value, flag
        return {"rewards": rewards, "scores": list(rewards), "extra_logs": {"scored": scored}}


def openrlhf_rewards(rewarder: RewardScorer, queries: Sequence[str], prompts: Sequence[str],
                     labels: Sequence[str], not_scored: float = 0.0) -> dict[str, Any]:
    """OpenRLHF's {"rewards", "scores", "extra_logs"} for queries (prompt + response) as lists."""
    samples = OpenRLHFBatch.of(queries, prompts, labels)
    refusal = samples.refusal()
    if refusal:
        raise ValueError(refusal)
    return samples.reply(rewarder.rewards(samples.references, samples.responses), not_scored)
