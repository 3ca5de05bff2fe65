"""Lines that name places, or an examination, or why it was made, and nothing more.

A heading written without its colon ("Salivary glands", "Left orbit") and a study's title
written as a sentence ("Neck US.", "Lumbar MR, pre- and post-contrast.", "Non-contrast chest CT,
compared with June 2023.") say nothing of what the images show: the reader drops them, as it drops
a "Technique:" section, and a heading of the second kind heads no lines below it. Nor does the
indication a title line gives beside the title ("Left calf MR. Acute calf pain playing tennis."),
which a sectioned report writes under "History:". Shared by the
atomiser (``atoms``) and the reading of headings (``report_text``).
"""
from __future__ import annotations

import re

from radscope.engine.reader.text.anatomy import anatomy_lexicon, canonical_text, names_site, site_mentions
from radscope.engine.reader.vocabulary.loader import load

_TITLE_WORDS = load("radsem")["titles"]

# a word of a statement or a number: what a heading written without its colon does not hold
_SAYS_SOMETHING_RE = re.compile(
    r"\d|\b(?:is|are|was|were|has|have|shows?|seen|noted|no|not|normal|unremarkable|clear|intact|without|with)\b",
    re.IGNORECASE)
_PLACE_GLUE_RE = re.compile(r"\b(?:the|and|or|of|left|right|bilateral|both|other|rest|remaining|anterior|posterior"
                            r"|upper|lower|medial|lateral|superior|inferior|proximal|distal|deep|superficial|great|findings)\b|[,/&-]")
# plain nouns for a part of the body, which no site pattern names alone
_PLACE_NOUN_RE = re.compile(
    r"\b(?:walls?|glands?|vessels?|bones?|lobes?|cords?|parenchyma|structures?|tissues?|regions?|areas?"
    r"|(?:csf )?spaces?|compartments?|complex(?:es)?|muscles?|nodes?|isthmus|fossae?|segments?|cells?|midface|contents?"
    r"|circulation|tracts?|organs?|veins?|arter(?:y|ies)|branch(?:es)?|levels?(?: [ivx]+[ab]?)?"
    r"|limbs?|legs?|arms?|extremit(?:y|ies)|thighs?|calf|calves|forearms?|sides?)\b")
# a place's adjective before such a noun ("lacrimal glands", "popliteal vessels"); "(a)symmetric"
# ends alike but says how the places compare ("Lateral ventricles: asymmetric.")
_PLACE_ADJECTIVE_RE = re.compile(r"(?!a?symmetric)[a-z]+(?:al|ar|ary|ic)[.;:]?")


def names_only_places(text: str) -> bool:
    """"Salivary glands", "Lymph nodes", "Left orbit": a heading written without its colon on a
    line of its own says nothing of what it names (read, it was an abnormal statement about no
    finding); the lines under it do."""
    if len(text.split()) > 4 or _SAYS_SOMETHING_RE.search(text):
        return False  # the cheap test first: most short sentences say something ("No effusion.")
    lex, lower = anatomy_lexicon(), text.lower()
    if (not _PLACE_NOUN_RE.search(lower) and not names_site(text)) or lex.normal.search(lower):
        return False
    # what is left once the places are out: a finding word inside a place's name ("Nasal
    # cavity") is part of the place, and a part named by a plain noun ("Sinus walls", "Other
    # parenchyma") is a place too
    whole = canonical_text(text)
    canon = _without_sites(whole)
    if lex.abnormal.search(canon):
        return False
    named_a_place = canon != whole or bool(_PLACE_NOUN_RE.search(canon))
    return named_a_place and _only_place_words(canon)


def _without_sites(canon: str) -> str:
    for _, pattern in site_mentions(canon):
        canon = pattern.sub(" ", canon)
    return canon


def _only_place_words(canon: str) -> bool:
    """What is left of a text once its sites are out holds only place words: plain place nouns,
    the words that join places ("left", "and", "the"), and places' adjectives."""
    rest = _PLACE_NOUN_RE.sub(" ", _PLACE_GLUE_RE.sub(" ", canon))
    return all(_PLACE_ADJECTIVE_RE.fullmatch(w) for w in rest.strip(" .;:").split())


# What names an examination ("Neck US", "TA + TV scan", "Lumbar MR, pre- and
# post-contrast", "L ANKLE (AP/MORTISE/LAT) vs post-op films 8 wk ago"): a modality, a scan or
# its views, written in any of the ways departments title a study, or the prior it is compared with
# (looked up word by word: this test runs on every sentence and part, and an alternation behind a
# word boundary is tried at every character)
_EXAMINATION_WORDS = frozenset(_TITLE_WORDS["examination"])  # radsem.json "titles"
_EXAMINATION_STEM_RE = re.compile(r"\b(?:sonograph|scintigraph|angiogra|venogra|neurosonogra)")
_WORD_RE = re.compile(r"[a-z]+(?:-[a-z]+)*")
# how the study was made and what it is compared with: the words a title holds besides its
# places (views, contrast and phases, an ultrasound's route, a prior study and when it was)
_TITLE_WORDS_RE = re.compile(
    r"\b(?:post-op|pre-op|us|ultrasound|ultrasonography|(?:neuro)?sonogra\w*|doppler|duplex|ct|cte|cta|ctpa|ncct|hrct|mri|mr"
    r"|mra|mrv|mrcp|mre|cmr|tof|time-of-flight|angiogra\w*|venogra\w*|arthrogram|pet(?:-ct)?|spect|scintigraph\w*"
    r"|radiographs?|x-rays?|films?|views?|scans?|stud(?:y|ies)|mpr|mip|vr|[23]d|reformat\w*|reconstructions?"
    r"|exam(?:ination)?s?|imaging|images?|series|sequences?|protocol|projections?"
    r"|ap|pa|lat|laterals?|obliques?|mortise|skyline|sunrise|axial|frog-leg|flexion|extension|flexion-extension"
    r"|standing|weight-bearing|erect|supine|upright|portable|whole|contrast|contrast-enhanced|iv|intravenous|oral"
    r"|neutral|gadolinium|gad|enhanced|unenhanced|non-contrast|noncontrast|non-enhanced|plain|pre|post"
    r"|pre-contrast|post-contrast|precontrast|postcontrast|phases?|multiphase|multiphasic|triple-phase|biphasic"
    r"|dual-phase|arterial|late|early|portal|venous|delayed|nephrographic|corticomedullary|excretory|enteric"
    r"|hepatobiliary|minutes?|min|seconds?|s|ta|tv|tvs|transabdominal|transvaginal|transrectal|grey-scale"
    r"|gray-scale|greyscale|colou?r|growth|trimester|ob|obstetric(?:al)?|first|second|third|interval|review|follow-up|surveillance"
    r"|staging|screening|routine|postoperative|post-operative|preoperative|prior|previous"
    r"|compared|comparison|vs|versus|since|from|ago|available|dated|on|today|last|earlier|days?|weeks?|wks?"
    r"|months?|years?|yrs?|hours?|hrs?|h|one|two|three|four|five|six|twelve|eighteen|a|an|with|without|w/o|w/|of|the|and|to"
    r"|at|in|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d+(?:-(?:month|week|year|day))?|\d+w\d*d?"
    r"|[clt]-spine|tl|ls|l|r)\b|[+()?.,;:/&~-]")
# a word of a statement: what a title does not hold ("Compared with the prior, the heart is enlarged.")
_STATES_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|shows?|showing|seen|noted|no|not|normal|unremarkable|clear|intact"
    r"|demonstrates?|reveals?|there)\b")
# a title's indication, after it: "CT liver ... for HCC surveillance in cirrhosis", "MR (query MSCC",
# "US right thigh - palpable mass", "Ultrasound right anterior thigh lump" (a complaint, last), "MRI
# brain, 48 hours after resection of a right parietal metastasis" (the operation it follows), "...,
# in a patient with metastatic breast carcinoma receiving chemotherapy" (the history)
_TITLE_INDICATION_RE = re.compile(
    r"[\s(](?:for|query|\?|to (?:exclude|assess|evaluate|rule out))\s.*$|\s(?:lump|swelling|pain)\s*\.?$"
    r"|,\s*(?:\d+ (?:hours?|h|days?|weeks?) )?(?:after|following|status post|s/p)\s.*$"
    r"|[\s,]in an? (?:[\w-]+ ){0,3}?(?:patient|man|woman|male|female|child|boy|girl)\b.*$"
    r"|\s-\s(?:palpable|pain|painful|lump|swelling|trauma|injury|fall|query|r/o|rule out|follow[- ]up|review"
    r"|staging|screening|surveillance|(?:[\w-]+\s)?(?:assessment|evaluation|work-?up))\b.*$"
    r"|\s(?:after|following)\s(?:an?\s)?(?:[\w-]+\s){0,2}(?:injury|trauma|fall|accident)\b.*$"
    r"|,\s*(?:cast removed|out of cast)\b.*$")
# a bracket after the title holding its indication ("US left breast (palpable lump, upper outer quadrant)")
_BRACKET_RE = re.compile(r"\(([^()]*)\)")


# What a title line says of the patient besides the study (``is_indication``): the complaint, the
# history and the treatment so far, a test that was raised, the question asked
# (looked up word by word, as the examination's words are: asked of a report's first sentences)
_INDICATION_WORDS = frozenset(_TITLE_WORDS["indication"])


def is_indication(text: str) -> bool:
    """"Acute calf pain playing tennis.", "Fall from 2 metres.", "Rectal cancer after anterior
    resection, second-line chemotherapy.": a phrase, stating nothing of the images, that says why
    the study was made. Asked only of a title line's sentences (``atoms``): in the findings, "a
    palpable lump" may be what was seen."""
    return mentions_an_indication(text) and not _STATES_RE.search(text.lower())


def mentions_an_indication(text: str) -> bool:
    """Whether ``text`` holds a word of an indication or a question: what ``is_indication`` asks
    first, and the one test a report's opening sentences need together when none does."""
    lower = text.lower()
    return "?" in lower or not _INDICATION_WORDS.isdisjoint(_WORD_RE.findall(lower))


def names_an_examination(text: str) -> bool:
    """"Neck US.", "Non-contrast chest CT, compared with June 2023.", "Prior from 8 months ago
    available.": a line that names the study (its modality, views, contrast, phases, the prior it
    is compared with) and places only says how and where the images were made, not what they
    show: a technique line, dropped as "Technique: ..." is, whichever words title it."""
    lower = text.lower()
    words = set(_WORD_RE.findall(lower))
    if not (words & _EXAMINATION_WORDS or _EXAMINATION_STEM_RE.search(lower)) \
            or _STATES_RE.search(lower):
        return False  # the cheap tests first: no study named, or a statement about it
    if "(" in lower:
        lower = _BRACKET_RE.sub(lambda m: " " if is_indication(m.group(1)) else m.group(0), lower)
    rest = _TITLE_WORDS_RE.sub(" ", _TITLE_INDICATION_RE.sub("", lower)).strip()
    if not rest:
        return True
    lex, canon = anatomy_lexicon(), canonical_text(rest)
    if lex.normal.search(canon) or lex.abnormal.search(canon):
        return False  # "CT head normal": a title, then what it shows
    return _only_place_words(_without_sites(canon))
