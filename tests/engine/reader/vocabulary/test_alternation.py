"""reader.alternation gives the matches of the whole lexicon alternation, span for span.

Every alternation the readers build (anatomy and finding words, SRR leaves, CLEAR conditions)
is run both ways on the example reports' sentences, their lower- and upper-case forms,
sentences written to hit ties and unindexed alternatives, non-ASCII text, and seeded random
shuffles of all their words; ``search``, ``finditer`` and ``sub`` must agree exactly.
"""
from __future__ import annotations

import random
import re

import pytest

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.clear.rules import _condition_lexicons
from radscope.engine.reader.vocabulary.alternation import Alternation, AlternationSet
from radscope.engine.reader.text.anatomy import anatomy_lexicon, canonical_text, site_mentions
from radscope.engine.reader.vocabulary import equivalents
from radscope.engine.reader.vocabulary.equivalents import read_equivalents
from radscope.engine.reader.vocabulary.loader import (
    AnyMatch,
    StartIndex,
    alternative_literals,
    literal_starts,
    load,
    required_literal,
    telling_start,
)
from radscope.engine.reader.vocabulary.reader_words import reader_lexicon
from radscope.engine.reader.attributes.certainty import scope_rules
from radscope.engine.metrics.srr.rule_labels import leaf_rules
from radscope.engine.reader.text import wording
from radscope.engine.reader.text.wording import normalise

WRITTEN = [
    "Bilateral pleural effusions, left and right sides, s/p CABG.",
    "Pneumonitis and ARTHRITIS of both hips; no pneumothorax.",
    "The left or the right lung base shows atelectasis or consolidation.",
    "Bibasilar opacities, bi-hilar adenopathy, enlarged cardiac silhouette.",
    "Compared with the prior study, the effusion has increased (image 12).",
    "Kidneys: small stone in each kidney. Ventricles are dilated.",
    "Épanchement pleural bilatéral; no effusion; café-au-lait",
    "",
    "itis itis- -itis 4itis",
]


def _texts() -> list[str]:
    sentences = list(WRITTEN)
    for example in example_pairs():
        for report in (example.pair.reference, example.pair.candidate):
            sentences.extend(re.split(r"(?<=[.;])\s+", report))
    words = " ".join(sentences).split()
    rng = random.Random(27)
    shuffled = [" ".join(rng.sample(words, min(len(words), 25))) for _ in range(120)]
    texts = sentences + shuffled
    return texts + [t.lower() for t in texts] + [t.upper() for t in texts] + [canonical_text(t) for t in texts]


def _alternations() -> list[Alternation]:
    lex = anatomy_lexicon()
    found = [lex.normal, lex.abnormal, lex.neutral, lex.devices, lex.details, lex.drop,
             lex.bilateral, lex.paired_plural, *(a for pair in lex.directions for a in pair)]
    rules, no_finding, outside_chest = leaf_rules()
    found += [no_finding, outside_chest]
    for rule in rules:
        found += [a for a in (rule.mentions, rule.exclude, rule.requires, rule.implicit) if a]
    for condition in _condition_lexicons().values():
        found += [a for a in (condition.mentions, condition.exclude, condition.implicit) if a]
    reader = reader_lexicon()
    found += [reader.prior, reader.temporal, *(a for _, a in reader.change),
              *(a for _, a in reader.severity), scope_rules().any_cue]
    return found


def _spans(matches: object) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group(0)) for m in matches]  # type: ignore[attr-defined]


def test_alternations_match_as_the_whole_pattern() -> None:
    texts = _texts()
    alternations = _alternations()
    assert sum(a.narrow for a in alternations) > 100  # the test exercises the narrowed path
    matched = 0
    for alternation in alternations:
        for text in texts:
            expected = _spans(alternation.regex.finditer(text))
            assert _spans(alternation.finditer(text)) == expected, (alternation.pattern[:60], text)
            found, whole = alternation.search(text), alternation.regex.search(text)
            assert (found and (found.span(), found.group(0))) == (whole and (whole.span(), whole.group(0)))
            assert alternation.sub(lambda m: f"<{m.group(0)}>", text) == \
                alternation.regex.sub(lambda m: f"<{m.group(0)}>", text)
            assert alternation.sub("X", text) == alternation.regex.sub("X", text)
            matched += len(expected)
    assert matched > 1000


def test_removal_steps_remove_what_the_patterns_remove() -> None:
    patterns = [re.compile(p, re.IGNORECASE) for p in load("radsem")["remove_phrases"]]
    for text in _texts():
        fast = slow = text
        for step, pattern in zip(anatomy_lexicon().remove, patterns, strict=True):
            fast, slow = step.sub("", fast), pattern.sub("", slow)
        assert fast == slow, text


# one sentence for each family of the wording's rewrites, in capitals and with non-ASCII letters too
REWORDED = [
    "Oedema of the left ankle; haemorrhage is localised.",
    "The common bile duct is non-dilated.",
    "The effusion is larger than on the previous exam.",
    "Lungs: clear.",
    "No intra- or extrahepatic biliary dilatation.",
    "Nodules in the upper and lower lobes of the right lung.",
    "NO OEDEMA. LUNGS: CLEAR.",
    "Œdème of the ankle; oedema ×2",
]


def test_the_wording_asks_its_rewrites_only_where_one_may_match() -> None:
    """Whether any of the wording's rewrites matches a sentence (``loader.AnyMatch``: the index
    names the rewrites that may, only those are searched) is what a search by every rewrite says."""
    patterns = [pattern for pattern, _ in wording._patterns()[4]]
    any_match = AnyMatch(patterns)
    texts = [*_texts(), *REWORDED, *(t.upper() for t in REWORDED)]
    answers = [(any_match(t), any(p.search(t) for p in patterns)) for t in texts]
    assert [fast for fast, _ in answers] == [slow for _, slow in answers]
    assert all(any_match(t) for t in REWORDED)
    assert sum(slow for _, slow in answers) < len(texts) / 2  # most sentences need no rewrite


def test_any_match_searches_each_pattern_where_the_index_cannot_tell() -> None:
    """A pattern that minds case, or text that is not ASCII, is searched whole (the index reads
    lower-case ASCII)."""
    minds_case = AnyMatch([re.compile(r"\bCT\b"), re.compile(r"\bfoo", re.IGNORECASE)])
    assert minds_case("a CT scan") and not minds_case("a ct scan") and minds_case("FOOT")
    folds = AnyMatch([re.compile(r"\boedema", re.IGNORECASE)])
    assert folds("OEDEMA ×2") and folds("no oedema") and not folds("edema") and not folds("Œdème")


@pytest.mark.parametrize(("pattern", "literal"), [
    (r"(?:\w+itis)\b", "itis"), (r"\b(?:abc|abd)x", "ab"), (r"(?:^[^.;]{1,40}:$)", ":"),
    (r"\b(?:bi-?hilar)\b", "hilar"), (r"(?=foo)bar", "bar"), (r"a(?i:xyz)b", "a"),
    (r"ÉCHO", ""), (r"\d+", "")])
def test_required_literal(pattern: str, literal: str) -> None:
    assert required_literal(re.compile(pattern, re.IGNORECASE)) == literal


@pytest.mark.parametrize(("pattern", "literals"), [
    (r"\bct\b|\bcta\b|computed tomograph", ("ct", "cta", "computed tomograph")),
    (r"\bthin[- ]section|\baxial (?:image|slice)|\b(?:image|im|img) ?\d+", ("section", "axial ", "im")),
    (r"x(?:ab|cd)y", ("xaby", "xcdy")), (r"\blungs?\b", ("lung",)), (r"foo|\d+", ("foo", "")),
    (r"a|b(?:c|d)", ("a", "b")), (r"ÉCHO|echo", ("", "echo"))])
def test_alternative_literals(pattern: str, literals: tuple[str, ...]) -> None:
    assert alternative_literals(re.compile(pattern, re.IGNORECASE)) == literals


def test_an_alternation_that_can_match_nothing_or_captures_runs_whole() -> None:
    assert not Alternation(["a?"]).narrow
    assert not Alternation(["(ab)c"]).narrow
    assert not Alternation([]).narrow
    assert Alternation([]).search("anything") is None


def test_canonical_text_and_site_look_up_skip_only_what_cannot_match() -> None:
    """The substitutions run in order on every text give the same canonical text, and every
    site pattern that matches is among those looked up."""
    lex = anatomy_lexicon()
    for text in _texts():
        # the words every reader reads, then each modality's equivalent forms
        slow = read_equivalents(normalise(text).lower().replace("\u00d7", " x "))
        for pattern, word in lex.canonical:
            slow = pattern.sub(word, slow)
        canon = canonical_text(text)
        assert canon == re.sub(r"\s+", " ", slow).strip(), text
        looked_up = {site for site, _ in site_mentions(canon)}
        assert {site for site, pattern in lex.site_patterns if pattern.search(canon)} <= looked_up


def test_the_equivalents_run_only_where_they_may_match() -> None:
    """Each modality's rewrites run in turn on every text give what ``read_equivalents`` gives
    running only those its index finds (``loader.Rewrites``): the families' own examples, mixed."""
    rewrites = equivalents._rewrites().substitutions
    examples = [s for family in equivalents.families().values() for group in family["examples"] for s in group]
    rng = random.Random(43)
    words = " ".join(examples).split()
    mixed = [" ".join(rng.sample(words, 30)) for _ in range(200)]
    changed = 0
    for text in [*_texts(), *examples, *mixed]:
        lowered = normalise(text).lower()
        slow = lowered
        for pattern, written in rewrites:
            slow = pattern.sub(written, slow)
        assert read_equivalents(lowered) == slow, text
        changed += slow != lowered
    assert changed > 200  # the texts hold the forms the rewrites are for


@pytest.mark.parametrize(("pattern", "starts"), [
    (r"\b(?:(?:endo)?tracheal tube)\b", {"endotracheal tube", "tracheal tube"}),
    (r"\b(?:remains? stable)\b", {"remains stable", "remain stable"}),
    (r"\b(?:t1[- ]?weighted)\b", None), (r"\w+itis", None)])
def test_literal_starts(pattern: str, starts: set[str] | None) -> None:
    found = literal_starts(re.compile(pattern, re.IGNORECASE))
    assert (set(found) if found is not None else None) == starts


def test_literal_starts_stop_short_of_too_many_rather_than_give_up() -> None:
    """A pattern whose starts would expand into more literals than the index keeps is indexed by
    the starts before that part (it had been tested on every sentence instead)."""
    optional = "".join(f"(?:{word} )?" for word in ("is", "very", "quite", "much", "so", "too", "yet", "far"))
    found = literal_starts(re.compile(rf"\b(?:(?:wall|septal) motion {optional}reduced)\b"))
    assert found is not None and len(found) == 2 ** 8  # the ninth choice would double it past 400
    assert all(start.startswith(("wall motion ", "septal motion ")) for start in found)


@pytest.mark.parametrize(("start", "told"), [
    ("the density of ", "density of "), ("no joint space", "joint space"),
    ("in the left lung", "left lung"), ("not smooth", "not smooth"), ("the ", "the "),
    ("no -", "no -")])
def test_a_start_is_indexed_from_its_first_telling_word(start: str, told: str) -> None:
    assert telling_start(start) == told


def test_a_pattern_led_by_a_common_word_is_not_asked_of_every_sentence_holding_it() -> None:
    """"(the )?density of" is looked up by "density of": a sentence with "the" alone does not
    run it, one that holds the start still does, whatever comes before it."""
    index = StartIndex([re.compile(r"\b(?:(?:the )?density of)\b"), re.compile(r"\b(?:no joint space)\b")])
    assert index.candidates("the lungs are clear; no effusion.") == []
    assert index.candidates("the density of the left hilum is increased.") == [0]
    assert index.candidates("increased density of the hilum; no joint space narrowing") == [0, 1]


def test_an_alternation_set_names_every_alternation_that_matches() -> None:
    alternations = [rule.mentions for rule in leaf_rules()[0]] + \
        [c.mentions for c in _condition_lexicons().values()]
    joint = AlternationSet(alternations)
    asked = 0
    for text in _texts():
        possible = joint.possible(text)
        matching = {k for k, a in enumerate(alternations) if a.regex.search(text)}
        assert matching <= set(possible), text
        asked += len(possible)
    assert asked < len(alternations) * len(_texts()) / 4  # most are not asked


def test_the_direction_sides_set_names_every_side_that_matches() -> None:
    lex = anatomy_lexicon()
    sides = [a for pair in lex.directions for a in pair]
    found = 0
    for text in _texts():
        matching = {k for k, a in enumerate(sides) if a.regex.search(text)}
        assert matching <= set(lex.direction_sides.possible(text)), text
        found += len(matching)
    assert found > 50


def test_every_exam_cue_match_passes_its_literal_gate() -> None:
    from radscope.engine.eligibility import applicability

    cue_words = ["CT of the chest with contrast agent; axial image 34, IM 12.", "Hounsfield units 40 HU.",
                 "Isodense and hypo-dense foci; T2WI and FLAIR signal; DWI.", "PA and lateral views.",
                 "Anechoic cyst on ultrasound, Doppler flow.", "Lung fields clear on the portable CXR.",
                 "MRI brain: gray-white matter, the cisterns.", "Knee: the meniscus; L4 and C5; T11 disc."]
    texts = _texts() + cue_words + [t.upper() for t in cue_words]
    cues = [cue for group in (*applicability._COMPILED_MODALITY.values(), *applicability._COMPILED_AREA.values())
            for cue in group]
    matched = 0
    for cue in cues:
        for text in texts:
            if text.isascii() and cue.pattern.search(text):
                assert cue.may_match(text.lower()), (cue.pattern.pattern, text)
                matched += 1
    assert matched > 500
