"""Does the reward teach the right thing? Best-of-n and a GRPO-style run over fixed candidates.

Each group is one reference chest radiograph and its candidates, all written in another layout
than the reference (so no candidate wins by copying its wording): the clinically right report
and siblings that each plant one error (``CANDIDATE_ERRORS``: the side swapped, the key finding
missed, a finding invented, its severity changed, it or a negative finding negated, and the two
impression-only errors of the layout benchmark), plus the one canned normal report a policy
could write for every study. The references are the layout benchmark's
cases (``bench.quality.layouts.CASES``) and eight more written here, every case rendered
in each of the benchmark's six layouts against each of the five others.

- Best-of-n: the reward (each combination docs/researchers.md documents) must rank the right
  report strictly above every sibling in at least 95 % of groups. A tie is a miss.
- GRPO: a softmax policy over each group's candidates, starting uniform, takes 40 steps of
  group-normalised policy gradient (8 samples a step, advantage (r - mean) / std) with that
  reward; afterwards the right report must be the policy's most likely choice in at least 95 %
  of groups and its mean probability must have risen from 1/8 to above 0.8.

"Displaced" against "nondisplaced" (the layout benchmark's fracture case) was a blind spot of
every metric until the reader read the two as opposite descriptions (radsem.json's direction
pairs); ``test_displaced_fracture_is_told_apart`` keeps it seen.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from bench.quality.gaming import RECOMMENDED
from bench.corpora.gaming_gallery import CANNED_NORMAL
from bench.quality.layouts import CASES, ERRORS, LAYOUTS, Case, Report, reference
from radscope.engine.rewards.scorer import RewardScorer

# The combinations docs/researchers.md documents: its first example and the one it recommends.
REWARDS = ("radsem:0.7,crepe:0.3", RECOMMENDED)

MORE_CASES: tuple[Case, ...] = (
    Case("basal-atelectasis",
         (("Heart", "The cardiac silhouette is normal in size."),
          ("Lungs", "There is mild right basilar atelectasis."),
          ("Pleura", "No pleural effusion or pneumothorax."),
          ("Bones", "The osseous structures are intact.")),
         1, "Mild right basilar atelectasis.", (),
         "There is a small left pleural effusion.", ("mild", "extensive")),
    Case("large-effusion",
         (("Pleura", "There is a large left pleural effusion."),
          ("Lungs", "The right lung is clear."),
          ("Heart", "The heart size is normal.")),
         0, "Large left pleural effusion.", (),
         "There is a right upper lobe consolidation.", ("large", "small")),
    Case("tension",
         (("Pleura", "There is a large right pneumothorax."),
          ("Mediastinum", "There is no mediastinal shift."),
          ("Lungs", "The left lung is clear.")),
         0, "Large right pneumothorax.", (),
         "There is a moderate left pleural effusion.", ("large", "small")),
    Case("lobar-pneumonia",
         (("Lungs", "There is extensive consolidation in the right lower lobe."),
          ("Heart", "The heart is normal in size."),
          ("Pleura", "No pleural effusion.")),
         0, "Extensive right lower lobe consolidation.", (),
         "There is a small right pneumothorax.", ("extensive", "minimal")),
    Case("upper-lobe-nodule",
         (("Lungs", "There is a small nodule in the left upper lobe."),
          ("Heart", "Normal heart size."),
          ("Pleura", "No pleural effusion.")),
         0, "Small left upper lobe nodule.", (),
         "There is a moderate right pleural effusion.", ("small", "large")),
    Case("diaphragm",
         (("Diaphragm", "There is mild elevation of the right hemidiaphragm."),
          ("Lungs", "The lungs are clear."),
          ("Heart", "Heart size is normal.")),
         0, "Mild elevation of the right hemidiaphragm.", (),
         "There is a small left apical pneumothorax.", ("mild", "marked")),
    Case("apical-pneumothorax",
         (("Pleura", "There is a moderate left apical pneumothorax."),
          ("Lungs", "No focal consolidation."),
          ("Heart", "The heart size is normal.")),
         0, "Moderate left apical pneumothorax.", (),
         "There is a small right pleural effusion.", ("moderate", "tiny")),
    Case("lobar-collapse",
         (("Lungs", "There is severe right lower lobe collapse."),
          ("Heart", "Heart size is normal."),
          ("Pleura", "No pneumothorax.")),
         0, "Severe right lower lobe collapse.", (),
         "There is a small left pleural effusion.", ("severe", "mild")),
)


def negated(case: Case) -> Report:
    """The reference with its key finding stated absent ("There is a ..." -> "There is no ...",
    in the findings and the impression), or, where the key finding is not stated so, its first
    negative finding stated present ("No X." -> "There is X.")."""
    ref = reference(case)
    key = re.match(r"There is (?:an? )?(.+)\.$", case.findings[case.key][1])
    if key:
        findings = tuple((organ, f"There is no {key[1]}." if i == case.key else s)
                         for i, (organ, s) in enumerate(ref.findings))
        impression = f"No {case.impression_key[0].lower()}{case.impression_key[1:]}"
        return Report(findings, (impression, *case.impression_rest))
    for i, (_, sentence) in enumerate(ref.findings):
        negative = re.match(r"No (.+)\.$", sentence)
        if negative:
            findings = tuple((organ, f"There is {negative[1]}." if j == i else s)
                             for j, (organ, s) in enumerate(ref.findings))
            return Report(findings, ref.impression)
    raise ValueError(f"case {case.name}: nothing to negate")


CANDIDATE_ERRORS: dict[str, Callable[[Case], Report]] = {
    **{name: ERRORS[name] for name in ("side", "missed", "invented", "severity",
                                        "impression-normal", "impression-side")},
    "negation": negated,
}


@dataclass(frozen=True)
class Group:
    case: str
    reference: str
    right: str
    siblings: dict[str, str]  # error -> candidate


def groups() -> list[Group]:
    out = []
    for case in (*CASES, *MORE_CASES):
        plants = {error: plant(case) for error, plant in CANDIDATE_ERRORS.items()}
        for ref_layout, cand_layout in itertools.permutations(LAYOUTS, 2):
            render = LAYOUTS[cand_layout]
            right = render(reference(case))
            # The image-blind guess that beats another patient's report (docs/researchers.md,
            # "Reward hacking") must still lose to the right report inside the study's group.
            siblings = {**{e: render(r) for e, r in plants.items()}, "canned normal": CANNED_NORMAL}
            assert right not in siblings.values(), (case.name, "a planted error changed nothing")
            out.append(Group(case.name, LAYOUTS[ref_layout](reference(case)), right, siblings))
    return out


@pytest.fixture(scope="module", params=REWARDS)
def scored(request) -> list[tuple[Group, float, dict[str, float]]]:
    """Each group with the reward of its right report and of each sibling (one batch)."""
    all_groups = groups()
    refs = [g.reference for g in all_groups for _ in range(1 + len(g.siblings))]
    cands = [c for g in all_groups for c in (g.right, *g.siblings.values())]
    rewards = RewardScorer(request.param).rewards(refs, cands).rewards
    assert all(r is not None for r in rewards)  # chest radiographs: every metric applies
    out, at = [], 0
    for g in all_groups:
        values = [float(r) for r in rewards[at:at + 1 + len(g.siblings)] if r is not None]
        out.append((g, values[0], dict(zip(g.siblings, values[1:], strict=True))))
        at += 1 + len(g.siblings)
    return out


def test_best_of_n_picks_the_right_report(scored):
    wins = [all(right > r for r in siblings.values()) for g, right, siblings in scored]
    assert len(scored) == (len(CASES) + len(MORE_CASES)) * 30
    rate = sum(wins) / len(wins)
    missed = sorted({(g.case, e) for (g, right, siblings), won in zip(scored, wins, strict=True) if not won
                     for e, r in siblings.items() if r >= right})
    assert rate >= 0.95, (rate, missed)


def test_displaced_fracture_is_told_apart(scored):
    fracture = [(right, siblings["severity"]) for g, right, siblings in scored if g.case == "fracture"]
    assert len(fracture) == 30
    assert all(right > sibling for right, sibling in fracture)


def test_grpo_steps_move_the_policy_to_the_right_report(scored):
    """Group-relative policy gradient on a softmax over each group's candidates (index 0 is the
    right report); the rewards come from the table the reward gave (a pair's reward does not
    depend on its batch, so scoring each sample again would give the same numbers)."""
    rng = np.random.default_rng(0)
    rewards = np.array([[right, *siblings.values()] for g, right, siblings in scored])
    n_groups, n_cands = rewards.shape
    logits = np.zeros_like(rewards)
    start = np.full(n_groups, 1 / n_cands)
    for _ in range(40):
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        for i in range(n_groups):
            picks = rng.choice(n_cands, size=8, p=probs[i])
            r = rewards[i, picks]
            advantage = (r - r.mean()) / (r.std() + 1e-4)
            grad = np.zeros(n_cands)
            for pick, a in zip(picks, advantage, strict=True):
                grad += a * (np.eye(n_cands)[pick] - probs[i])
            logits[i] += 0.5 * grad / len(picks)
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    assert (probs.argmax(axis=1) == 0).mean() >= 0.95
    assert probs[:, 0].mean() > 0.8 > start.mean()
