"""Deterministic synthetic chest reports for training the project's small demonstration models.

Two products, both from the vocabulary in ``lexicon``:

* CREPE pairs: a reference report built from a few "facts" (finding, side, site, severity,
  change), and a candidate that restates the same facts in other words, then receives a
  controlled number of errors per category A-F. Because every error is injected on purpose,
  the six counts are exact, not estimated. Paraphrase, sentence order and normal statements
  differ freely between the two reports and never count as errors, which is what teaches a
  model to tell wording from meaning.
* SRR utterances: single sentences with the SRR-BERT leaf labels and statuses (Present,
  Uncertain, Absent, or the bare "No Finding") that they state; sentences with no finding
  have an empty label set.

The same seed always gives the same data: only ``random.Random(seed)`` is used, and no set is
ever iterated (string hashing differs between processes).

Run ``radscope training.synth crepe|srr --n N --seed S --out FILE.jsonl``.
"""
from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from training.lexicon import (
    ABSENT_FRAMES,
    CHANGE_FRAMES,
    CHANGES,
    DEVICE_FRAMES,
    FILLERS,
    FINDINGS,
    FINDINGS_BY_KEY,
    LOBES,
    MIN_SEVERITY_STEP,
    NEUTRAL,
    PRESENT_FRAMES,
    SEVERITY_SCALES,
    SIDES,
    STABLE,
    UNCERTAIN_FRAMES,
    Filler,
    Finding,
)

CATEGORY_KEYS = ("A", "B", "C", "D", "E", "F")
# How many errors of one category a non-clean candidate receives (before availability limits).
ERROR_COUNT_WEIGHTS = (0.5, 0.33, 0.13, 0.04)
CLEAN_SHARE = 0.2  # candidates that restate the reference with no error at all
# Candidates with exactly one error of one category: the clearest signal of what each
# category means; the rest mix several errors (counts drawn from ERROR_COUNT_WEIGHTS).
SINGLE_EDIT_SHARE = 0.5
# Candidates that keep the reference's own sentences except the edited ones; the others
# restate every fact in new words, order and layout (paraphrase is never an error).
MINIMAL_EDIT_SHARE = 0.5
RESOLVED_FRAMES = ("{Np} has resolved.", "Resolution of {np}.", "Interval resolution of {np}.")


@dataclass(frozen=True)
class Fact:
    """One stated finding: what, where, how severe, and how it changed since a prior study."""

    key: str
    side: str | None = None
    site: str | None = None
    severity: str | None = None
    change: str | None = None

    @property
    def finding(self) -> Finding:
        return FINDINGS_BY_KEY[self.key]


# --------------------------------------------------------------------------- wording


def _article(np: str, finding: Finding, plural: bool) -> str:
    if plural or not finding.countable:
        return ""
    return "an " if np[:1].lower() in "aeiou8" else "a "


def noun_phrase(fact: Fact, rng: random.Random, *, with_severity: bool = True) -> tuple[str, str]:
    """The fact as a noun phrase in one of several word orders, and the article it takes."""
    f = fact.finding
    sev = f"{fact.severity} " if (fact.severity and with_severity) else ""
    plural = fact.side == "bilateral" and f.plural is not None
    noun = f.plural if plural else rng.choice(f.nouns)
    if fact.side is None:
        np = f"{sev}{noun}"
    elif fact.side == "bilateral":
        np = rng.choice([f"{sev}bilateral {noun}", f"{sev}{noun} bilaterally",
                         f"{sev}{noun} on both sides"])
    elif fact.site:
        np = rng.choice([f"{sev}{fact.side} {fact.site} {noun}",
                         f"{sev}{noun} in the {fact.side} {fact.site}"])
    else:
        np = rng.choice([f"{sev}{fact.side} {noun}", f"{sev}{fact.side}-sided {noun}",
                         f"{sev}{noun} on the {fact.side}"])
    return np, _article(np, f, plural)


def _fill(frame: str, np: str, article: str) -> str:
    text = frame.format(np=np, a=article, Np=np[:1].upper() + np[1:])
    return text[:1].upper() + text[1:]


def render_present(fact: Fact, rng: random.Random) -> str:
    """A sentence stating the fact as present (with its change descriptor, if any)."""
    np, article = noun_phrase(fact, rng)
    frames: tuple[str, ...]
    if fact.finding.device:
        frames = DEVICE_FRAMES + PRESENT_FRAMES[:3]
    elif fact.change:
        frames = CHANGE_FRAMES[fact.change]
    else:
        frames = PRESENT_FRAMES
    return _fill(rng.choice(frames), np, article)


def label(leaf: str, status: str | None) -> str:
    return leaf if status is None or leaf == "No Finding" else f"{leaf} ({status})"


# --------------------------------------------------------------------------- facts


def random_fact(rng: random.Random, exclude: tuple[str, ...] = (), devices: bool = True) -> Fact:
    choices = [f for f in FINDINGS if f.key not in exclude and (devices or not f.device)]
    f = rng.choice(choices)
    side = site = severity = change = None
    if f.lateral:
        side = "bilateral" if (f.bilateral_ok and rng.random() < 0.2) else rng.choice(SIDES)
        if f.sites and side != "bilateral":
            site = rng.choice(LOBES if side == "right" else ("upper lobe", "lower lobe"))
    if f.scale and rng.random() < 0.7:
        severity = rng.choice(SEVERITY_SCALES[f.scale])
    if not f.device and rng.random() < 0.35:
        change = rng.choice(CHANGES) if rng.random() < 0.7 else rng.choice(STABLE)
    return Fact(f.key, side, site, severity, change)


def _other_location(fact: Fact, rng: random.Random) -> Fact | None:
    """The fact moved: other side, or other lobe on the same side (category C)."""
    if fact.side is None:
        return None
    if fact.side == "bilateral":
        return replace(fact, side=rng.choice(SIDES))
    if fact.site and rng.random() < 0.4:
        lobes = LOBES if fact.side == "right" else ("upper lobe", "lower lobe")
        others = [lobe for lobe in lobes if lobe != fact.site]
        return replace(fact, site=rng.choice(others))
    other = "right" if fact.side == "left" else "left"
    site = fact.site
    if site == "middle lobe":  # the left lung has no middle lobe
        site = rng.choice(("upper lobe", "lower lobe"))
    return replace(fact, side=other, site=site)


def _other_severity(fact: Fact, rng: random.Random) -> Fact | None:
    """The fact with a clearly different severity (category D), or None when it has none."""
    if not fact.severity:
        return None
    scale = SEVERITY_SCALES[fact.finding.scale or ""]
    i = scale.index(fact.severity)
    far = [s for j, s in enumerate(scale) if abs(j - i) >= MIN_SEVERITY_STEP]
    return replace(fact, severity=rng.choice(far)) if far else None


# --------------------------------------------------------------------------- reports


def report_parts(facts: list[Fact], rng: random.Random,
                 blocked: tuple[str, ...]) -> list[tuple[int | None, str]]:
    """(fact index or None, sentence) in report order: the facts plus a few normal statements
    that contradict nothing (a filler is blocked by any finding it would deny)."""
    parts: list[tuple[int | None, str]] = [(i, render_present(f, rng)) for i, f in enumerate(facts)]
    fillers = [f for f in FILLERS if not any(k in f.blocked_by for k in blocked)]
    rng.shuffle(fillers)
    chosen_keys: list[str] = []
    for filler in fillers[:rng.randint(0, 2)]:
        # "pleura" already says what "effusion" and "pneumothorax" say: keep one of them.
        if filler.key in ("effusion", "pneumothorax") and "pleura" in chosen_keys:
            continue
        if filler.key == "pleura" and ("effusion" in chosen_keys or "pneumothorax" in chosen_keys):
            continue
        chosen_keys.append(filler.key)
        parts.append((None, rng.choice(filler.texts)))
    rng.shuffle(parts)
    if rng.random() < 0.15:
        parts.insert(0, (None, rng.choice(NEUTRAL)))
    if not parts:
        parts = [(None, rng.choice(FILLERS[-1].texts))]
    return parts


def report_style(rng: random.Random) -> tuple[str, str]:
    """(sentence separator, header prefix)."""
    sep = "\n" if rng.random() < 0.2 else " "
    header = rng.choice(("FINDINGS: ", "Findings: ", "FINDINGS:\n")) if rng.random() < 0.25 else ""
    return sep, header


def join_report(parts: list[tuple[int | None, str]], style: tuple[str, str]) -> str:
    sep, header = style
    return header + sep.join(sentence for _, sentence in parts)


def compose_report(facts: list[Fact], rng: random.Random, blocked: tuple[str, ...]) -> str:
    """A whole report for ``facts`` in a random wording, order and layout."""
    parts = report_parts(facts, rng, blocked)
    return join_report(parts, report_style(rng))


def minimal_edit(ref_parts: list[tuple[int | None, str]], ref: list[Fact],
                 cand: list[Fact | None], added: list[Fact],
                 rng: random.Random) -> list[tuple[int | None, str]]:
    """The reference's own sentences with only the edited facts changed: omitted ones removed,
    changed ones restated, false ones inserted, normal statements that would deny an inserted
    finding dropped. Everything else stays word for word."""
    added_keys = tuple(f.key for f in added)
    out: list[tuple[int | None, str]] = []
    for index, sentence in ref_parts:
        if index is None:
            filler = next((f for f in FILLERS if sentence in f.texts), None)
            if filler is None or not any(k in filler.blocked_by for k in added_keys):
                out.append((None, sentence))
        elif (edited := cand[index]) is None:
            continue
        elif edited == ref[index]:
            out.append((index, sentence))
        else:
            out.append((index, render_present(edited, rng)))
    for fact in added:
        out.insert(rng.randint(0, len(out)), (None, render_present(fact, rng)))
    return out


@dataclass
class CrepePair:
    """A synthetic pair with its exact error counts per category and what was done."""

    reference: str
    candidate: str
    counts: dict[str, int]
    edits: list[str]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CrepePair:
        return cls(data["reference"], data["candidate"],
                   {k: int(data["counts"][k]) for k in CATEGORY_KEYS}, list(data["edits"]))


def _draw_count(rng: random.Random) -> int:
    return rng.choices(range(len(ERROR_COUNT_WEIGHTS)), weights=ERROR_COUNT_WEIGHTS)[0]


@dataclass
class _Injection:
    """The candidate's facts while errors are injected: each reference fact receives at most one
    error (``touched``), in the order ``order`` the reference facts are offered in."""

    ref: list[Fact]
    order: list[int]
    cand: list[Fact | None] = field(init=False)
    touched: list[int] = field(default_factory=list)
    added: list[Fact] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORY_KEYS, 0))
    edits: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cand = list(self.ref)

    def take(self, ok: Callable[[Fact], bool]) -> int | None:
        """The next untouched, still stated reference fact that ``ok`` accepts, now touched."""
        for i in self.order:
            if i not in self.touched and self.cand[i] is not None and ok(self.ref[i]):
                self.touched.append(i)
                return i
        return None

    def edit(self, category: str, n: int, ok: Callable[[Fact], bool],
             change: Callable[[Fact], tuple[Fact | None, str]]) -> None:
        """Up to ``n`` errors of ``category``: ``change`` gives a fact's new form and the edit."""
        for _ in range(n):
            i = self.take(ok)
            if i is None:
                break
            self.cand[i], what = change(self.ref[i])
            self.counts[category] += 1
            self.edits.append(f"{category}: {what}")

    def add(self, n: int, rng: random.Random) -> None:
        """Up to ``n`` false findings (category A), while unused findings remain."""
        for _ in range(n):
            if len(self.ref) + len(self.added) >= len(FINDINGS) - 1:
                break
            fact = random_fact(rng, exclude=tuple(f.key for f in self.ref + self.added))
            fact = replace(fact, change=None)
            self.added.append(fact)
            self.counts["A"] += 1
            self.edits.append(f"A: added {fact.key}")


def _wanted_errors(mode: float, rng: random.Random) -> dict[str, int]:
    """How many errors of each category a candidate that is not clean receives (``mode``: the
    draw in [CLEAN_SHARE, 1) that chose between one error and a mix)."""
    if mode < CLEAN_SHARE + SINGLE_EDIT_SHARE:
        want = dict.fromkeys(CATEGORY_KEYS, 0)
        want[rng.choice(CATEGORY_KEYS)] = 1  # may find no fact to apply to: then clean
        return want
    return {k: _draw_count(rng) for k in CATEGORY_KEYS}


def _moved(fact: Fact, rng: random.Random) -> tuple[Fact, str]:
    moved = _other_location(fact, rng)
    assert moved is not None  # take() chose a fact with a side, which always moves
    return moved, (f"{fact.key} {fact.side} {fact.site or ''} -> "
                   f"{moved.side} {moved.site or ''}").strip()


def _resized(fact: Fact, rng: random.Random) -> tuple[Fact, str]:
    changed = _other_severity(fact, rng)
    assert changed is not None  # take() chose a fact whose severity can change
    return changed, f"{fact.key} {fact.severity} -> {changed.severity}"


def _compared(fact: Fact, rng: random.Random) -> tuple[Fact, str]:
    new_change = rng.choice(CHANGES[1:] + STABLE)  # "new" would contradict the reference
    return replace(fact, change=new_change), f"{fact.key} gains comparison '{new_change}'"


def _inject_errors(ref: list[Fact], rng: random.Random) -> _Injection:
    """The candidate's facts: the reference's, with errors of the six categories injected."""
    mode = rng.random()
    if mode < CLEAN_SHARE:
        return _Injection(ref, [])
    want = _wanted_errors(mode, rng)
    order = list(range(len(ref)))
    rng.shuffle(order)
    inj = _Injection(ref, order)
    inj.edit("B", want["B"], lambda f: True, lambda f: (None, f"omitted {f.key}"))
    inj.edit("C", want["C"], lambda f: f.side is not None, lambda f: _moved(f, rng))
    inj.edit("D", want["D"], lambda f: _other_severity(f, random.Random(0)) is not None,
             lambda f: _resized(f, rng))
    inj.edit("E", want["E"], lambda f: f.change is None and not f.finding.device,
             lambda f: _compared(f, rng))
    inj.edit("F", want["F"], lambda f: f.change in CHANGES,
             lambda f: (replace(f, change=None), f"{f.key} loses comparison '{f.change}'"))
    inj.add(want["A"], rng)
    return inj


def make_crepe_pair(rng: random.Random) -> CrepePair:
    """One reference/candidate pair with injected errors; each fact receives at most one error."""
    n_facts = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4))
    ref: list[Fact] = []
    for _ in range(n_facts):
        ref.append(random_fact(rng, exclude=tuple(f.key for f in ref)))
    inj = _inject_errors(ref, rng)
    cand, added = inj.cand, inj.added
    cand_facts = [f for f in cand if f is not None] + added
    ref_keys = tuple(f.key for f in ref)
    cand_keys = tuple(f.key for f in cand_facts)
    omitted = tuple(ref[i].key for i in inj.touched if cand[i] is None)
    # The reference may deny what the candidate falsely adds; the candidate may deny what it omits.
    ref_blocked = ref_keys + (cand_keys if rng.random() < 0.5 else ())
    kept_ref = tuple(k for k in ref_keys if k not in omitted) if rng.random() < 0.3 else ref_keys
    cand_blocked = cand_keys + kept_ref
    ref_parts = report_parts(ref, rng, ref_blocked)
    style = report_style(rng)
    reference = join_report(ref_parts, style)
    if rng.random() < MINIMAL_EDIT_SHARE:
        # Word-for-word except the edits (for an error-free pair: a verbatim copy), so that
        # the counts are tied to the edited sentences alone.
        candidate = join_report(minimal_edit(ref_parts, ref, cand, added, rng), style)
    else:
        candidate = compose_report(cand_facts, rng, cand_blocked)
    return CrepePair(reference, candidate, inj.counts, inj.edits)


# --------------------------------------------------------------------------- utterances


@dataclass
class SrrUtterance:
    """One sentence and the SRR-BERT leaf-with-status labels it states (possibly none)."""

    text: str
    labels: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "labels": list(self.labels)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SrrUtterance:
        return cls(str(data["text"]), list(data["labels"]))


def _status_sentence(fact: Fact, status: str, rng: random.Random) -> str:
    if status == "Present":
        return render_present(fact, rng)
    if status == "Uncertain":
        np, article = noun_phrase(fact, rng)
        return _fill(rng.choice(UNCERTAIN_FRAMES), np, article)
    bare = replace(fact, severity=None, site=None,
                   side=fact.side if (fact.side != "bilateral" and rng.random() < 0.3) else None)
    np, article = noun_phrase(bare, rng, with_severity=False)
    frames = ABSENT_FRAMES + (RESOLVED_FRAMES if rng.random() < 0.15 else ())
    return _fill(rng.choice(frames), np, article)


def make_srr_utterance(rng: random.Random) -> SrrUtterance:
    r = rng.random()
    if r < 0.55:
        fact = random_fact(rng)
        if fact.finding.device:
            status = "Present"
        else:
            status = rng.choices(("Present", "Uncertain", "Absent"), weights=(0.55, 0.2, 0.25))[0]
            if status != "Present":
                fact = replace(fact, change=None)
        return SrrUtterance(_status_sentence(fact, status, rng),
                            [label(fact.finding.leaf, status)])
    if r < 0.7:
        first = replace(random_fact(rng, devices=False), change=None)
        second = replace(random_fact(rng, exclude=(first.key,), devices=False), change=None,
                         severity=None)
        np1, _ = noun_phrase(first, rng)
        np2, a2 = noun_phrase(second, rng)
        if rng.random() < 0.6:
            text = _fill(rng.choice(("{Np} and " + a2 + np2 + ".",
                                     "{Np} with " + a2 + np2 + ".",
                                     "There is {a}{np} and " + a2 + np2 + ".")), np1,
                         _article(np1, first.finding, first.side == "bilateral"))
            status = "Present"
        else:
            b1, _ = noun_phrase(replace(first, severity=None, side=None, site=None), rng)
            b2, _ = noun_phrase(replace(second, side=None, site=None), rng, with_severity=False)
            text = rng.choice((f"No {b1} or {b2}.", f"There is no {b1} or {b2}.",
                               f"No evidence of {b1} or {b2}."))
            status = "Absent"
        return SrrUtterance(text, sorted({label(first.finding.leaf, status),
                                          label(second.finding.leaf, status)}))
    if r < 0.92:
        filler: Filler = rng.choice(FILLERS)
        return SrrUtterance(rng.choice(filler.texts), sorted(filler.labels))
    return SrrUtterance(rng.choice(NEUTRAL), [])


# --------------------------------------------------------------------------- datasets


def crepe_dataset(n: int, seed: int) -> list[CrepePair]:
    rng = random.Random(seed)
    return [make_crepe_pair(rng) for _ in range(n)]


def srr_dataset(n: int, seed: int) -> list[SrrUtterance]:
    rng = random.Random(seed)
    return [make_srr_utterance(rng) for _ in range(n)]


def write_jsonl(items: list[Any], path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with Path(path).open("w", encoding="utf-8") as fh:
        for item in items:
            fh.write(json.dumps(item.to_json(), ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="radscope training.synth",
                                     description="write synthetic CREPE pairs or SRR utterances")
    parser.add_argument("kind", choices=("crepe", "srr"))
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    items = crepe_dataset(args.n, args.seed) if args.kind == "crepe" else srr_dataset(args.n, args.seed)
    write_jsonl(items, args.out)
    print(f"wrote {len(items)} {args.kind} examples (seed {args.seed}) to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
