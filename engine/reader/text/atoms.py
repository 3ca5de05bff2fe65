"""RadSEM stage 1 without a model: Findings -> atomic finding sentences.

What the LLM rewrite does with instructions, this does with patterns: clauses are cut where a
new statement starts (";", "but", ", and the ..."), a second predicate of the same subject
("the RCA contains plaque and demonstrates stenosis") gets its own sentence, coordinated subjects ("the spleen,
pancreas and kidneys are normal") and negated lists ("no effusion, mass or stones") are
written out one item per sentence, a list of sites after a preposition ("in the hila or the
mediastinum") becomes one sentence per site, and "both" / "bilateral" / a plural paired organ
becomes a left and a right sentence. Comparison wording, image references, technique and
recommendation sentences are removed. Order is kept and exact duplicates are dropped.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from functools import lru_cache

from radscope.engine.reader.text.anatomy import (
    TOKEN_RE,
    anatomy_lexicon,
    canonical_text,
    denied_apart,
    names_device,
    names_finding,
    names_site,
    said_of_the_finding_before,
    site_mentions,
)
from radscope.engine.reader.text.labelled_lines import (
    CHANGE_ALONE,
    COMPLICATION,
    COMPLICATION_LIST,
    DENIAL_HEDGE,
    MR_SEQUENCE,
    MR_SEQUENCE_RE,
)
from radscope.engine.reader.text.places_only import (
    is_indication,
    mentions_an_indication,
    names_an_examination,
    names_only_places,
)
from radscope.engine.reader.text.report_text import ReportText, read_text
from radscope.engine.reader.vocabulary.equivalents import appearance_words, kind_words
from radscope.engine.reader.vocabulary.loader import load, word_regex

# --- words (engine/data/lexicons/grammar.json) ----------------------------------------------------
_GRAMMAR = load("grammar")
_STATEMENT_VERBS: tuple[str, ...] = tuple(_GRAMMAR["statement_verbs"]["words"])
_PREDICATE_VERBS = f"(?:{'|'.join(_GRAMMAR['predicate_verbs']['words'])})"
_SINGULAR_VERB: dict[str, str] = _GRAMMAR["singular_verbs"]["forms"]
_LATIN_PLURALS = frozenset(_GRAMMAR["latin_plurals"]["words"])
PART_NOUNS = frozenset(_GRAMMAR["part_nouns"]["words"])  # also read by attributes.place
_PART_OF_RE = re.compile(r"^(?P<part>[a-z]+) of (?:the )?(?P<whole>.+)$", re.IGNORECASE)
_SINGULAR_IN_S = frozenset(_GRAMMAR["singular_in_s"]["words"])
_SIDE_PHRASES: dict[str, str] = _GRAMMAR["side_phrases"]["forms"]
_EFFECT_PARTICIPLES: tuple[str, ...] = tuple(_GRAMMAR["effect_participles"]["words"])
_FINDING_VERBS: tuple[str, ...] = tuple(_GRAMMAR["finding_verbs"]["words"])
_MAX_ITEM_WORDS = 5

# --- patterns, compiled once -----------------------------------------------------------------------
# Where a new statement starts: ";", "but", ", however", ", and the ..." (not ", and" inside a list).
_CLAUSE_SPLIT_RE = re.compile(
    r";\s*|\s+but\s+|,?\s+despite\s+(?=(?:a|an|the|some|bilateral|left|right)\b)|,?\s+along with\s+|,?\s+as well as\s+(?=(?:a|an|the|some|multiple|mild|small)\b)|,\s*(?:however|whereas|while|although|though)\s+|\s+whereas\s+"
    r"|,\s*and\s+(?=(?:the|there|no|a|an|its|their|some|multiple|scattered|bilateral|both|left|right|in|"
    r"mild|small|slight|several|few|local|partial|patchy)\b)",
    re.IGNORECASE)
_VERB_RE = re.compile(rf"\b(?:{'|'.join(_STATEMENT_VERBS)})\b", re.IGNORECASE)
_DISC_VERBS = "protrudes|bulges|herniates"
_ITEM_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+nor\s+", re.IGNORECASE)
# where a list of denials ends: a statement of what is normal, or a clause with a subject of its own
_DENIAL_LIST_END_RE = re.compile(
    r"(?:,\s*(?:and\s+)?|\s+and\s+)(?=(?:(?:with\s+)?(?:normal|clear|unremarkable|intact|preserved|patent|complete|good"
    r"|uniform|homogeneous|smooth|regular|symmetric(?:al)?)|with\s+(?:satisfactory|adequate))\b"
    r"|the\s+[a-z-]+(?:\s+[a-z-]+){0,3}\s+(?:is|are|was|were|appears?|remains?)\b)", re.IGNORECASE)
_NEG_LIST_RE = re.compile(
    r"^(?P<head>.*?\b(?:no|without)\s+(?:(?:obvious|definite|significant|evident|apparent|"
    r"abnormal|clear|focal|visible|acute)\s+)*)(?P<items>.+?)"
    r"(?P<tail>\s+(?:is|are|was|were|seen|noted|identified|observed|detected|present|in|within|"
    r"at|on|around|into|of the|of either|of each|involving)\b.*)?$", re.IGNORECASE)
# what a finding is or how it compares, said after it: "..., probably a simple cyst",
# "..., consistent with ...", "..., similar to the previous CT"
_APPOSITIVE_RE = re.compile(
    r"^(?:probabl\w*|possibl\w*|likely|suggest\w*|consistent|in keeping|compatible|represent\w*|considered|indicat\w*|"
    r"which|that|a|an|similar|unchanged|stable|diagnostic|typical|characteristic|favou?r\w*|suspicious|"
    r"concerning|worrisome|predominant\w*|mainly|mostly|chiefly|especially|particularly)\b", re.IGNORECASE)
# A participle or a size after a denial's comma says more of the finding, not another denied one
# ("no enhancement after contrast, measuring 17 x 24 mm", "..., extending to the hilum", "foci
# without restricted diffusion, lie in the frontal white matter")
_SAID_OF_THE_FINDING_RE = re.compile(
    r"^(?:measuring|extending|located|situated|sized|lie|lies|lying|sits?|sitting|\d|(?:the|its)\s+(?:largest|biggest|smallest|larger|smaller)\b)",
    re.IGNORECASE)
# "no enlarged right or left hilar lymph nodes": two sides of one place, read as both sides
_SIDE_PAIR_SPLIT_RE = re.compile(r"\b(?:left|right)$", re.IGNORECASE)
# A list of sites after a preposition ("in the hila or the mediastinum"): where one may start,
# where it surely ends, what joins its items, and the words an item starts with that are not sites.
_LOCATIVE_RE = re.compile(r"\b(?:in|within|at|of|involv(?:es|e|ing)|affect(?:s|ing)?|on|around|into)\s+",
                          re.IGNORECASE)
_LOCATIVE_END_RE = re.compile(
    r"(?<!\d)\.|\.(?!\d)|[;:()]|,?\s+(?:is|are|was|were|shows?|showed|showing|revealed|reveals?|demonstrat\w*|exhibit\w*|with|without|measur\w*|spans?|"
    r"which|that|on|along|due|suggest\w*|consistent|compatible|likely|possibly|probably|extending)\b",
    re.IGNORECASE)
_SITE_JOINER_RE = re.compile(
    r"\s*,\s*(?:(?:and|or)\s+)?(?:as well as\s+)?|\s+(?:and|or|as well as)\s+", re.IGNORECASE)
_AND_OR_RE = re.compile(r"\b(?:and|or|as well as)\b", re.IGNORECASE)
# an item of a site list with a preposition of its own ("in the frontal lobes and around the
# lateral ventricles"): it takes that one, not the list's
_OWN_PREPOSITION_RE = re.compile(
    r"(?:around|near|beside|adjacent to|along|below|above|behind|beneath|under|anterior to|posterior to)\s",
    re.IGNORECASE)
# "both the anterior and posterior fat pads": a "both" that opens a list of positions says "each
# of the two", not "on each side"
_SITE_ITEM_LEAD_RE = re.compile(
    r"^(?:(?:the|in|within|at|on|of|either|each)\s+|both\s+(?:the\s+)?(?=(?:anterior|posterior|medial|lateral|superior"
    r"|inferior|proximal|distal|internal|external)\b))+", re.IGNORECASE)
_MAX_SITE_WORDS = 8  # "lingular segment of the left upper lobe": a part named with its whole
# An item that says where the finding lies or what it does ("..., located anterior to the right
# sternocleidomastoid muscle and lateral to the carotid space"): the list of places ends before it
_SAYS_WHERE_RE = re.compile(r"(?:located|situated|lying|extending|arising|measuring|seen|noted|which|that)\b",
                            re.IGNORECASE)
_LEVEL = r"[ctls]\d{1,2}(?:\s*[-/\u2013\u2014]\s*[ctls]?\d{1,2})?"
_LEVEL_RE = re.compile(rf"^{_LEVEL}$", re.IGNORECASE)
_ANY_LEVEL_RE = re.compile(rf"\b{_LEVEL}\b", re.IGNORECASE)
_LEVEL_JOINER_RE = re.compile(r"\s*[/\u2013\u2014-]\s*[ctls]?")
_LEVEL_SITE_RE = re.compile(rf"^{_LEVEL}(?:\s+(?:levels?|segments?))?$", re.IGNORECASE)  # "C6/7 levels"
# "at C3/4, C4/5, C5/6": spinal levels are often listed with commas only.
_LEVEL_LIST_RE = re.compile(
    rf"\b(?P<prep>in|within|at|of|on)\s+(?P<items>{_LEVEL}(?:\s*,\s*{_LEVEL})+)\b(?!\s*,?\s*(?:and|or)\b)",
    re.IGNORECASE)
# ", obscuring the right hemidiaphragm": a second finding, at other sites, acting on them.
_EFFECT_RE = re.compile(
    rf",\s*(?:and\s+)?(?P<verb>{'|'.join(_EFFECT_PARTICIPLES)})\s+(?P<object>[^,;]+)$", re.IGNORECASE)
# ", with compression of the dural sac": a second finding attached to the first (", without
# <finding>" a denial, a statement of its own only where it is said of another organ or side).
# ", with", ", and", ...; and ", no" before a denial ("Small left pleural effusion, no pneumothorax")
_WITH_RE = re.compile(r",\s*(?:(?:with|without|accompanied by|associated with|and)\s+|(?=no\s))", re.IGNORECASE)
# "a small", "mild", "several": how much of a finding there is, which no place is written with
_AMOUNT_WORDS = r"an?|small|mild|moderate|large|trace|minimal|several|multiple|some"
_AMOUNT_LEAD_RE = re.compile(rf"^(?:{_AMOUNT_WORDS})\b", re.IGNORECASE)
# "edema in the left femoral neck and a small hip joint effusion", "hydronephrosis of the left
# kidney and dilatation of the upper ureter": a second finding at a place of its own, joined by
# "and" without a comma (its amount, a denial of a finding of its own, or a noun and the
# preposition naming its place; not a participle: "markings are increased and thickened in both
# lungs" says two things of one finding; nor a quality: "normal cortical thickness and
# echogenicity of both kidneys" is one statement)
_QUALITY_NOUNS = ("echogenicity|echotexture|density|attenuation|signal|intensity|thickness|size|contour|shape"
                  "|morphology|calib(?:er|re)|enhancement|appearance|configuration|position|alignment|margins?|outline")
_AND_ANOTHER_RE = re.compile(
    rf"\s+and\s+(?=(?:{_AMOUNT_WORDS}|no)\s|(?![a-z-]+ed\s|(?:{_QUALITY_NOUNS})\s)[a-z]+(?:-[a-z]+)?\s+(?:of|in|within|at)\s)",
    re.IGNORECASE)
# "with" without a comma after an organ called normal in size or shape ("normal in size with a 2
# cm fibroid"): it begins what is in the organ, not how it looks
_SIZE_WITH_RE = re.compile(
    r"(?:normal in size|normal in shape|of normal size|size and shape|normal[- ]sized \w+)(?P<joiner>\s+with\s+)"
    r"(?=(?:an?|\d|multiple|several|scattered|a few|two|three)\b)", re.IGNORECASE)
_SIDE_RE = re.compile(r"\b(?:left|right)\b", re.IGNORECASE)
# "X contains a plaque and demonstrates mild narrowing": a second predicate of the same subject.
_ALSO_RE = re.compile(r"^also\s+", re.IGNORECASE)
_DEGREE = "(?:mildly|slightly|markedly|moderately|severely)"  # an adverb of degree before a word
# "<subject> is thickened and edematous": two predicate adjectives of one subject
_TWO_ADJECTIVES_RE = re.compile(
    r"^(?P<subject>.+?\s(?:is|are|was|were|appears?|appeared|seems?|looks?|remains?)\s+)"
    rf"(?P<first>(?:{_DEGREE}\s+)?[a-z-]+)\s*,?\s+and\s+"
    rf"(?P<second>(?:{_DEGREE}\s+)?[a-z-]+)(?P<tail>(?:\s+(?:in|at|of|on|with|within)\b.*)?)$",
    re.IGNORECASE)
_FIRST_PREDICATE_RE = re.compile(rf"\b{_PREDICATE_VERBS}\b", re.IGNORECASE)
# a predicate of the subject's own: a predicate verb or a verb by which a finding acts on a
# structure, perhaps after an adverb ("... compresses the root and moderately narrows the recess")
_PREDICATE_START = f"(?:{_PREDICATE_VERBS}|{'|'.join(_FINDING_VERBS)})"
_PREDICATE_START_RE = re.compile(rf"\b{_PREDICATE_START}\b", re.IGNORECASE)
_SECOND_PREDICATE_RE = re.compile(
    rf",?\s+and\s+(?=(?:also\s+)?(?:(?:{_DEGREE}|significantly)\s+)?{_PREDICATE_START}\b)", re.IGNORECASE)
# A subject list is not expanded when it is negated (the negated-list rule handles it) or is
# really a prepositional phrase plus the subject ("In the pelvis, a mass is ...").
_NEGATION_OR_PREPOSITION_RE = re.compile(
    r"\b(?:no|not|without|neither|nor)\b|^(?:in|within|at|on|after|from|for|to|of|under|along|"
    r"around|near|behind|adjacent)\b|,\s*(?:in|within|at|on|after|from|for|to|of|under|along)\b",
    re.IGNORECASE)
# where the subject of a sentence without a verb ends: "<findings> observed / at <site>"
_TELEGRAPHIC_END_RE = re.compile(
    r"\s(?:observed|seen|noted|identified|visible|present|detected|at|in|within|under|beneath|along|around)\b"
    r"|\s(?:normal|unremarkable|symmetric(?:al)?|homogeneous|intact|patent|preserved)(?=\s+in\b|\s*[,.;]|\s*$)"
    # "cord and conus normal in signal", "sinuses well aerated", "peroneal arteries well seen"
    r"|\swell\s(?=[a-z]+ed\b|seen\b|shown\b)"
    # "lateral and third ventricles proportionally enlarged": a change of size ending the line
    r"|\s(?:(?:slightly|mildly|moderately|markedly|proportionally|diffusely)\s+)?"
    r"(?:enlarged|dilated|widened|narrowed|compressed|effaced|thickened)(?=\s*[,.;]|\s*$)",
    re.IGNORECASE)
# a quality of a site that a subject list shares: "the bone density of the pelvis and the femurs"
_QUALITY_OF_RE = re.compile(
    r"^(?P<head>(?:[\w-]+ ){0,2}(?:density|signal(?: intensity)?|echo(?:genicity)?|attenuation|morphology"
    r"|size|shape|contour|outline|thickness|structure|appearance|position|alignment|caliber) of)\s",
    re.IGNORECASE)
# a finding named before the site it is of: "thickening of the left pleura and diaphragm"
_FINDING_OF_RE = re.compile(r"^(?P<head>(?:[\w-]+ ){0,2}[\w-]+) of\s", re.IGNORECASE)
_LEADING_ARTICLE_RE = re.compile(r"^(?:the|both)\s+", re.IGNORECASE)  # "the spleen, ..."
_LEADING_DENIAL_RE = re.compile(r"^(?:no|any)\s+", re.IGNORECASE)  # "no effusion and no ..."
_DENIAL_WORD_RE = re.compile(r"\b(?:no|not)\b", re.IGNORECASE)
# One-word items that are modifiers ("patchy and cord-like opacities") are not separate findings.
_MODIFIER_RE = re.compile(r"(?:y|like|al|ar|ic|ed|ous|ive|ing|thin|thick)$|^absent$", re.IGNORECASE)
# "A nodule in the left upper lobe; new since the prior CT" (its comparison already removed): the
# part after the semicolon only says how the finding changed, so it is one statement
_CHANGE_AFTER_SEMICOLON_RE = re.compile(rf";\s*(?=(?:{CHANGE_ALONE})\s*(?:[;.]|$))", re.IGNORECASE)
# What the finding before is taken to be, said alone ("...; contusion is considered", "A cyst is
# considered."): the diagnosis of that finding, one statement with it, as "..., likely a contusion" is
_INFERENCE_ALONE = (r"(?:(?:a|an|the)\s+)?[a-z][\w-]*(?:\s+[\w-]+){0,4}?\s+(?:is|are)\s+(?:first\s+)?"
                    r"(?:considered|favou?red|likely)(?:\s+first)?")
_INFERENCE_AFTER_SEMICOLON_RE = re.compile(rf";\s*(?=(?:{_INFERENCE_ALONE})\s*(?:[;.]|$))", re.IGNORECASE)
_INFERENCE_ALONE_RE = re.compile(rf"(?:{_INFERENCE_ALONE})\s*\.?", re.IGNORECASE)
_INFERENCE_WORD_RE = re.compile(r"consider|favou?r|likely", re.IGNORECASE)  # the cheap test first
# ", with low signal on T1WI, has increased": how a finding looks, then how it changed
_TRAILING_CHANGE_RE = re.compile(rf",?\s*(?:{CHANGE_ALONE})\s*[.;]?\s*$", re.IGNORECASE)
# A lead naming the examination or its views before a colon ("Facial bones, occipitomental and
# lateral views: ..."): ``_without_title`` drops it when it names no finding
_TITLE_LEAD_RE = re.compile(
    r"^(?P<lead>[^:;.]{0,120}\b(?:views?|radiographs?|films?|x-rays?|dr|cr|ct|mri|positions?|projections?)\b[^:;.]{0,60})"
    r":\s*(?=\S)", re.IGNORECASE)
# "The right vertebral artery is slender, the left is dominant": a clause about the other side
# of the organ just named, which a report written one line per side says of that organ
_OTHER_SIDE_CLAUSE_RE = re.compile(
    r"^(?P<first>(?:the\s+)?(?P<side>left|right)\s+(?P<organ>[a-z][a-z -]{2,40}?)\s+(?:is|are|was|were|shows?|has|have)\b[^,;]*)"
    r",\s+(?:and\s+|while\s+|whereas\s+|but\s+)?the\s+(?P<other>left|right)(?:\s+one|\s+side)?\s+"
    r"(?P<rest>(?:is|are|was|were|shows?|has|have|appears?)\b[^;]*)$", re.IGNORECASE)
# An edge of a named site ("The posterior edge of the vertebral body ..."): a statement of its own
_EDGE_OF_RE = re.compile(
    r"^(?:the\s+)?(?:[\w-]+\s+){0,2}(?:margins?|borders?|edges?)\s+of\s+(?P<site>(?:the\s+)?[\w -]+?)"
    r"(?=\s+(?:is|are|does|do|shows?|has|have|was|were)\b|\s*[,.;]|$)", re.IGNORECASE)
# A sentence that only goes on describing the previous one's finding: "Multiple nodules in the
# liver. The largest measures 8 mm." / "A mass in the left lobe. Unclear borders."
_CONTINUATION_RE = re.compile(
    r"^(?:with\s+)?(?:(?:the|its)\s+(?:largest|biggest|smallest|larger|smaller)\b"
    r"|(?:(?:a|an)\s+)?(?:[\w-]+\s+){0,2}(?:margins?|borders?|edges?|boundar(?:y|ies))\b"
    r"|(?:(?:a|an)\s+)?(?:clear|smooth|regular|intact|well[- ]defined)\s+(?:walls?|capsules?)\b"
    # its size on a line of its own: "It measures 18 x 15 mm.", "Current size about 24 x 19 mm."
    r"|(?:it|they)\s+(?:now\s+)?measures?\b"
    r"|(?:(?:current|previous|prior|overall|maximum|maximal|greatest)\s+)?(?:size|diameter|dimensions?)\s+"
    r"(?:(?:is|was|of|now)\s+)?(?:about|approximately|approx\.?|around|up to|\d))", re.IGNORECASE)
# A template's line for one attribute of the lesion above it ("Shape: oval.", "Doppler: markedly
# vascular.", under a study's side "Right Size 64 x 48 mm."): its label, then what it is, with no
# verb between; the lesion's own statement, as one sentence would say it
_ATTRIBUTE_LINE_RE = re.compile(
    r"^(?:(?P<side>left|right)\s+)?(?:size|dimensions|measurements?|shape|contour|location|echotexture|echogenicity"
    r"|echo pattern|composition|orientation|doppler|vascularity|vasculari[sz]ation|morphology)\s+"
    r"(?!(?:is|are|was|were|appears?|shows?|of|in|on|at|and|with|no|not)\b)", re.IGNORECASE)
# A fracture's step in its joint surface after ", with" ("..., with an articular step-off of about
# 1 mm"): how the fracture lies, not a second finding (its "articular" names the fracture's joint)
_STEP_OFF_RE = re.compile(r"(?:(?:a|an)\s+)?(?:(?:\d+(?:\.\d+)?\s*mm|articular|joint)\s+)*step[- ]?offs?\b",
                          re.IGNORECASE)
# A change in size said after ", with": the finding's, not a finding ("a nodule ..., with an
# increased size compared to the previous scan")
_SIZE_CHANGE_RE = re.compile(
    r"(?:(?:a|an)\s+)?(?:(?:slight|mild|marked)(?:ly)?\s+)?(?:increased?|decreased?|reduced|reduction|enlarged|larger|smaller)"
    r"\s+(?:in\s+)?size\b", re.IGNORECASE)
# "After intravenous injection of contrast via the cubital vein, the scan shows: <finding>",
# "Small bowel MRE shows: <finding>": the lead that introduces the findings goes, they stay.
_TECHNIQUE_LEAD_RE = re.compile(
    r"^[^:;]*\b(?:shows?|demonstrates?|reveals?|(?:was|were) performed|(?:is|are) as follows)\s*:\s*"
    # "Non-contrast CT of the abdomen shows a distended gallbladder", "CT perfusion imaging shows that
    # ...": the study, then its finding
    r"|^(?:(?:non-?contrast|unenhanced|contrast-enhanced|enhanced|plain)\s+)?(?:(?:ct|mri|mr)(?:\s+(?:perfusion|angiography))?"
    r"|ultrasound|radiographs?|films?|x-rays?|cta|mra|(?:the\s+)?(?:images?|scans?|study|examination))"
    r"(?:\s+(?:imaging|maps|images|scan))?(?:\s+of\s+the\s+[a-z ]{1,30}?)?"
    r"\s+(?:shows?|showed|demonstrates?|demonstrated|reveals?|revealed)\s+(?:that\s+)?(?=\S)",
    re.IGNORECASE)
# "CDFI: no blood flow signal inside", "...; Color Doppler shows peripheral flow": the Doppler
# technique before what it shows, at the start of a sentence or of a clause (said after it, "on
# color Doppler" is context in the canonical forms)
_DOPPLER_LEAD_RE = re.compile(
    r"(?:^|(?<=[;,]\s))(?:cdfi\b|(?:colou?r|power)\s+doppler(?:\s+flow\s+imaging)?"
    r"(?=\s*:|\s+(?:shows?|showed|demonstrates?|reveals?)\b))\s*:?\s*(?:(?:shows?|showed|demonstrates?|reveals?)\b\s*:?\s*)?",
    re.IGNORECASE)
# "neither ... nor ...", rewritten as "no ... or ..." / "not ... or ..."
_NEITHER_RE = re.compile(r"\bneither\b(?=[^.;]*\bnor\b)", re.IGNORECASE)
_THERE_NEITHER_RE = re.compile(r"\b(there\s+(?:is|are|was|were))\s+neither\b", re.IGNORECASE)
_VERB_NEITHER_RE = re.compile(r"\b(is|are|was|were|appears?|seems?|remains?)\s+neither\b",
                              re.IGNORECASE)
_LEADING_NEITHER_RE = re.compile(r"^neither\b", re.IGNORECASE)
# "Neither the right nor the left ovary is clearly visualized": both subjects, the verb denied
_NEITHER_SUBJECTS_RE = re.compile(
    r"^neither\s+(?P<a>[^,;]+?)\s+nor\s+(?P<b>[^,;]+?)\s+(?P<verb>is|are|was|were)\s+(?!not\b)", re.IGNORECASE)
_NEITHER_WORD_RE = re.compile(r"\bneither\b", re.IGNORECASE)
_NOR_RE = re.compile(r"\bnor\b", re.IGNORECASE)
# ", the aorta is calcified" / "and the carpal alignment is normal": after a complete statement, a
# comma or "and" that starts another subject with its own verb starts another statement (one
# after ", or" ends a list: its subject never starts with "or"); a disc's own verbs ("the C4/5
# disc bulges slightly") are verbs of a statement too, and a list of one-word sites is one subject
# ("..., the sulci, fissures and cisterns are not widened").
_COMMA_STATEMENT_RE = re.compile(
    rf"(?:,\s+(?:and\s+)?|\s+and\s+)(?=(?:the\s+)?(?P<subject>(?!(?:or|nor)\b)(?:[a-z][\w/-]*(?:,\s+[a-z][\w/-]*)+,?\s+and\s+[a-z][\w/-]*|[a-z][\w/'-]*(?:\s+[a-z][\w/-]*){{0,6}}))\s+(?:{'|'.join(_STATEMENT_VERBS)}|has|have|{_DISC_VERBS})\b)",
    re.IGNORECASE)
# "<sites> is seen" and no more: what a denial's list of places ends with
_ONLY_SEEN_RE = re.compile(r"(?:the\s+)?[\w/ -]+?\s+(?:is|are|was|were)\s+(?:(?:also|clearly|definitely)\s+)?"
                           r"(?:seen|noted|identified|detected|demonstrated|present|evident|visuali[sz]ed|"
                           r"observed|appreciated)$", re.IGNORECASE)
_DISC_VERB_RE = re.compile(rf"\b(?:{_DISC_VERBS})\b", re.IGNORECASE)
# ", no focal lesion is seen" / ", patchy high signal is seen in the left basal ganglia": after a
# complete statement, a comma before a denial or a finding not named before ("the", "its" or
# "which" would point back to one) that is seen somewhere starts a statement of its own.
_COMMA_SEEN_RE = re.compile(
    r",\s+(?:and\s+)?(?=(?P<subject>(?!(?:the|this|these|those|its|their|which|that|it|they|and|or)\b)"
    r"[a-z][\w-]*(?:\s+[\w-]+){0,5}?)\s+(?:is|are|was|were)\s+(?:also\s+)?(?:seen|noted|present|visible|"
    r"identified|observed|demonstrated|detected|shown|evident|appreciated)\b)",
    re.IGNORECASE)
# ", no new lesion has appeared" / ", no other abnormality is seen": nothing more found is a
# statement of its own after any statement, whatever the one before described.
_NOTHING_MORE_RE = re.compile(
    r"(?:there\s+(?:is|are)\s+)?no\s+(?:(?:obvious|definite|significant|evident|clear)\s+)?(?:new|other|further|additional)\b",
    re.IGNORECASE)
# Which side of a bilateral finding has more: "predominantly on the right", "more on the left",
# "more pronounced on the right side", "right greater than left", "R > L".
_PREDOMINANT_RE = re.compile(
    r",?\s*\b(?:predominantly|predominant|mainly|mostly|(?:more|most)(?:\s+(?:pronounced|prominent|marked|"
    r"obvious|evident|severe|extensive|significant|conspicuous))?|greater|worse)\s+(?:on\s+|at\s+|in\s+)?"
    r"(?:the\s+)?(?P<side>left|right)(?:\s+side|-sided)?\b"
    r"|\(?\b(?P<more>left|right|[lr])\s*(?:>|greater than|more than|worse than)\s*"
    r"(?:the\s+)?(?:left|right|[lr])\b\)?", re.IGNORECASE)
_DOMINANCE = "\x00"  # where the predominance phrase stood: each side's sentence says larger / smaller
# a finding that is a loss ("hippocampi reduced in volume, more marked on the left"): the side with
# more of it has less of the organ, so it is "more so" there, not "larger"
_LOSS_RE = re.compile(r"\b(?:reduc\w*|decreas\w*|loss|lost|atroph\w*|narrow\w*|smaller|thinn\w*|shrunk\w*|shrink\w*)\b",
                      re.IGNORECASE)
_BARE_SIDE_RE = re.compile(r"(left|right)(-sided|-)?", re.IGNORECASE)
# the words that say which part of an organ ("the right upper and middle lobes", "the medial and
# posterior malleoli"); an adjective of place is one of them or ends like "frontal", "hilar", "hepatic"
_PART_WORDS = "upper|lower|middle|mid|superior|inferior|anterior|posterior|medial|lateral"
_PART_WORD_RE = re.compile(rf"^(?:{_PART_WORDS})$", re.IGNORECASE)
_ADJECTIVE_RE = re.compile(rf"(?:al|ar|ic)$|^(?:{_PART_WORDS}|third|fourth|3rd|4th)$", re.IGNORECASE)
_BOTH_SIDES_RE = re.compile(r",?\s*\b(?:on (?:both|either|each) sides?|bilaterally)\b", re.IGNORECASE)
_DOUBLE_SIDE_RE = re.compile(r"\b(left|right)\s+(?:left|right)\b", re.IGNORECASE)
_REPEATED_SIDE_RE = {side: re.compile(rf"\b{side}\s+{side}\b", re.IGNORECASE)
                     for side in ("left", "right")}
_PLURAL_VERB_RE = re.compile(rf"^((?:[\w/-]+\s+){{0,4}}?)([\w/-]+)\s+({'|'.join(_SINGULAR_VERB)})\b",
                             re.IGNORECASE)
_SPACES_RE = re.compile(r"\s{2,}")
_SPACE_BEFORE_PUNCTUATION_RE = re.compile(r"\s+([,.;])")
_LEADING_CONNECTIVE_RE = re.compile(
    r"^(?:and|but|with|while|also|additionally|in addition|furthermore)\b[,\s]*", re.IGNORECASE)
# A signal reading of an MR sequence: "low signal on T1WI", "T2WI/FLAIR hyperintense", "long T1",
# "high T2 signal" (the sequences of equivalents.json's MR family).
_INTENSITY = (r"(?:(?:slightly|mildly|markedly|mixed|heterogeneously|homogeneously|uniformly|predominantly)\s+)?(?:(?:iso(?:intense)?-?\s*to\s+)?(?:hypo|hyper|iso)-?\s*intens(?:e|ity|ities)"
              r"|(?:iso-?\s*to\s+)?(?:low|high|iso|equal|increased|decreased|reduced|elevated|bright|dark)(?:\s+mixed)?(?:\s+signals?)?"
              r"(?:\s+intensity)?)")
_SEQUENCE_LIST = rf"{MR_SEQUENCE}(?:\s*(?:/|,|,?\s*and)\s*(?:on\s+|in\s+)?(?:the\s+)?{MR_SEQUENCE})*"
_SEQUENCE_READING_RE = re.compile(
    rf"{_INTENSITY}(?:\s+signals?)?(?:\s+intensity)?\s+(?:on|in)\s+(?:the\s+)?{_SEQUENCE_LIST}"
    rf"|{_SEQUENCE_LIST}[\s-]+(?:signals?\s+)?(?:(?:is|are)\s+)?{_INTENSITY}(?:\s+signals?)?"
    rf"|(?:on|in)\s+(?:the\s+)?{_SEQUENCE_LIST},?\s+(?:it|they|the lesions?)?\s*(?:shows?|demonstrates?|is|are)\s+"
    rf"{_INTENSITY}(?:\s+signals?)?(?:\s+intensity)?"
    rf"|(?:(?:slightly|mildly|markedly)\s+)?(?:long|short)\s+{MR_SEQUENCE}(?:\s+signals?)?"
    rf"|{_INTENSITY}[\s-]+{MR_SEQUENCE}(?:\s+signals?)?", re.IGNORECASE)
# what equivalents.json's MR family writes restricted diffusion as; a denial before it in its clause
_DIFFUSION_READINGS = "dwi hyperintense and adc hypointense"
_DENIED_BEFORE_RE = re.compile(r"\b(?:no|not|without|absent|negative for|free of)\b", re.IGNORECASE)
_RESTRICTS_RE = re.compile(r"restricts? diffusion", re.IGNORECASE)  # the verb: "the lesion restricts diffusion"
_DIFFUSION_SEQUENCE_RE = re.compile(r"\b(?:DWI|ADC)\b|diffusion[- ]weighted", re.IGNORECASE)
# a word that says something: two letters or more, or an MR sequence ("T1: hypointense." is a
# reading of its own, not a stray letter and a word)
_CONTENT_WORD_RE = re.compile(rf"{MR_SEQUENCE}|[A-Za-z]{{2,}}", re.IGNORECASE)
# what may stand between two readings of one run: "and", a comma, "is" / "shows" and the like
_SEQUENCE_GAP_RE = re.compile(
    r"\s*,?\s*(?:and\s+)?(?:(?:is|are|was|were|shows?|showing|demonstrates?|demonstrating|displays?|"
    r"displaying|exhibits?|exhibiting)\s+)?(?:with\s+)?"
    r"(?:(?:an?|the)\s+(?:[\w-]+\s+){0,2}?(?:areas?|foci|focus|regions?|components?|portions?|zones?)"
    r"\s+(?:of|with)\s+)?", re.IGNORECASE)
# appearance words that say nothing on their own ("is seen with no ...")
_APPEARANCE_GRAMMAR = frozenset("a an the of on in and or with without no is are was were its their about "
                                "approximately around seen noted observed shows show showing "
                                "demonstrates demonstrating exhibits exhibiting".split())
# "the fat plane between the mass and the rectum", "the space between L4 and L5": "between A and B"
# names one relation, not two statements, so its "and" is hidden from the list rules while the
# sentence is cut and written back in every atom. Two level ranges ("between L3-4 and L4-5") are
# two spaces and stay a list.
_BETWEEN_RE = re.compile(
    r"\bbetween\s+(?:the\s+)?(?P<first>[^,;.]{1,60}?)(?P<joiner>\s+and\s+)(?:the\s+)?(?P<second>[^,;.\s]+)",
    re.IGNORECASE)
_BETWEEN_AND = "\ue000"  # a private-use character: no list rule reads it as "and"
# plates and screws are one fixation construct (equivalents.json's hardware family reads them as
# "fixation hardware"), not two devices to cut into two statements: their "and" is hidden too
_ONE_CONSTRUCT_RE = re.compile(r"\b(?:plates?\s+and\s+screws?|screws?\s+and\s+plates?)\b", re.IGNORECASE)
# an organ's density, signal or echo read as abnormal, in canonical spelling
_ABNORMAL_APPEARANCE_RE = re.compile(r"\bhyp(?:o|er)(?:dense|intense|echoic)\b")
_FAT_SEQUENCE_RE = re.compile(r"\bfat[- ](?:suppress|saturat)\w*", re.IGNORECASE)
# where a description turns to what it means ("..., in keeping with bone marrow edema")
_INTERPRETATION_RE = re.compile(
    r",?\s+(?:in keeping with|consistent with|compatible with|suggest\w*|likely|possibly|probably|"
    r"representing|indicating|indicative of|due to)\b", re.IGNORECASE)
# What is left of "These were not present on the prior study" once the prior study is removed:
# a change against a prior (read by ``findings``' comparisons), no finding; kept, it would read
# as a denial ("This was not present.") that matches nothing, not even its own copy.
_UNSEEN_BEFORE_RE = re.compile(
    r"^(?:this|these|it|they|which)\s+(?:was|were|is|are|had|has|have)\s+not\s+(?:been\s+)?"
    r"(?:present|seen|visible|identified|evident|apparent)\W*$", re.IGNORECASE)
# An image artefact said on its own, or cut from the finding it was said with ("an aneurysm clip
# ..., with streak artefact"): a property of the images, no finding of the patient. One that says
# what it hides ("metallic artefact obscures the left hip") or what makes it ("artefact from the
# fixation plates") is a sentence and stays, and so does a metal artefact, which says that metal
# is there (``radsem.json`` reads "metallic artifacts" as a device).
_ARTEFACT_ONLY_RE = re.compile(
    r"(?:there\s+(?:is|are)\s+)?(?:(?:with|and|some|mild|minor|marked|extensive|an?|(?:streak|motion|beam[- ]hardening"
    r"|susceptibility|respiratory|pulsation|ring|radial|partial[- ]volume|starburst|blooming)"
    r"(?:\s+(?:artefacts?|artifacts?)\s+and)?)\s+)*(?:artefacts?|artifacts?)"
    r"(?:\s+(?:is|are)\s+(?:present|seen|noted|visible))?\W*", re.IGNORECASE)

# A measurement of a structure that names no finding ("The common bile duct measures about 7 mm in
# diameter", "the maximum diameter of the main portal vein is 15 mm", "the endometrium is 8 mm
# thick"): a measurement not tied to a finding, which RadSEM leaves out (a finding's own size,
# "the lesion measures 28 x 12 mm", names the finding and stays). ``_measures_a_site`` checks that
# the subject is a site.
_AMOUNT = (r"(?:(?:approximately|about|roughly|around|up to|nearly)\s+)?\d+(?:\.\d+)?"
           r"(?:\s*[-x\u00d7*]\s*\d+(?:\.\d+)?)*\s*(?:mm|cm)")
_DIMENSION = r"(?:diameter|thickness|width|length|size|calib(?:er|re)|depth|height|span)"
_SITE_MEASUREMENT_RE = re.compile(
    rf"^(?:in\s+the\s+[a-z]+,\s*)?(?:the\s+)?(?:(?:(?:maximum|maximal|largest|greatest|transverse|anteroposterior|inner|internal)\s+)*"
    rf"{_DIMENSION}\s+of\s+(?:the\s+)?(?P<of>[a-z][\w /-]*?)\s+(?:is|are|measures?)\s+{_AMOUNT}"
    # "the right kidney measures 11 cm", "the liver span is 16 cm", "hepatic span measured at 16
    # cm", and a short subject as a line writes it: "Kidney 13 cm in diameter", "Right kidney
    # bipolar length 12.2 cm"
    rf"|(?:(?P<site>[a-z][\w /-]*?)(?:\s+{_DIMENSION})?\s+(?:measures?|measuring|measured\s+at|spans?|is|are)"
    rf"|(?P<short>[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}}(?:\s+\([a-z]+\))?"
    # "Atrium (trigone) of the left lateral ventricle approximately 6 mm": a part of a structure
    rf"(?:\s+of\s+(?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,3}})?)(?:\s+(?:[a-z]+\s+)?{_DIMENSION})?):?\s+{_AMOUNT}"
    rf"(?:\s+(?:in\s+)?(?:(?:maximum|maximal|largest|transverse|bipolar|craniocaudal|anteroposterior|ap|sagittal|longitudinal)\s+)?"
    rf"(?:{_DIMENSION}|dimension)|\s+(?:thick|wide|long|deep))?"
    rf"|(?P<has>[a-z][\w /-]*?)\s+(?:has|shows)\s+an?\s+(?:(?:maximum|maximal)\s+)?{_DIMENSION}\s+of\s+{_AMOUNT})"
    r"\W*$", re.IGNORECASE)
# Where one line measures several structures ("Liver span 16 cm, spleen span 13 cm", "... 12 cm in
# length and the left kidney 11 cm"): after an amount, a comma or "and"
_SIDE_WORDS_RE = re.compile(r"\s*\(?\b(?:on\s+the\s+)?(?:right|left)\b(?:\s+side)?\)?", re.IGNORECASE)
_BARE_AMOUNT_RE = re.compile(_AMOUNT, re.IGNORECASE)
# the words that name a lesion by its look (radsem.json ``margin_terms``): "Gallbladder hyperdense
# focus 12 mm" measures a finding, not the gallbladder
_LESION_LOOK_RE = word_regex(load("radsem")["margin_terms"]["lesion_looks"])
_PART_AMOUNT_RE = re.compile(rf"(?:{_DIMENSION}|(?P<part>[a-z]+))\s+{_AMOUNT}", re.IGNORECASE)
# "... and that of the right is about 6 mm": the same measure of the other side's structure (the
# side words are taken out before the parts are read)
_THAT_OF_THE_OTHER_RE = re.compile(
    rf"(?:that|those)\s+of\s+the\s+(?:(?:left|right|other)\s+)?(?:one\s+)?(?:is|are|measures?)\s+{_AMOUNT}", re.IGNORECASE)
_MEASUREMENT_LIST_RE = re.compile(
    r"(?<=mm|cm)(?:\s+in\s+(?:length|diameter))?\s*(?:,\s*(?:and\s+)?|\s+and\s+)", re.IGNORECASE)
# "the largest at the left renal hilum measuring 33 mm": a subject that refers to a finding named
# before measures that finding, wherever it lies
_REFERS_TO_FINDING_RE = re.compile(
    r"(?:the\s+)?(?:largest|biggest|smallest|greatest|it|they|this|these|those|one|each)\b", re.IGNORECASE)



def atomize(report: str) -> tuple[list[str], list[str]]:
    """Atomic sentences of a report's Findings, and notes on what was dropped."""
    return atoms_of(read_text(report))


def atoms_of(text: ReportText) -> tuple[list[str], list[str]]:
    """Atomic sentences of a report read by the text stage, and notes on what was dropped."""
    sentences, _, notes = atoms_by_line(text)
    return list(dict.fromkeys(sentences)), notes


def atoms_by_line(text: ReportText, about_nothing: Callable[[str], bool] = lambda _: False
                  ) -> tuple[list[str], list[tuple[int, int]], list[str]]:
    """``atoms_of`` with where each atomic sentence was read from: its line, and which of the
    report's sentences it was cut from. A follow-up lead-in's place goes after each statement
    that names none, except one ``about_nothing`` says names nothing to be at a place ("There is
    no obvious change compared with the film of 2025-01-08": a change against a prior study)."""
    sentences: list[str] = []
    lines: list[tuple[int, int]] = []
    read: set[tuple[str, int]] = set()
    notes: list[str] = []
    place = None  # where a follow-up lead-in says the report's findings are
    joined = _join_continuations(list(zip(text.atom_lines, text.atom_source, strict=True)))
    title_line = _title_line(joined)  # the indication said among its opening sentences is dropped
    for said, (line, utterance) in enumerate(joined):
        if not utterance:
            continue
        if line != title_line:
            title_line = None
        elif is_indication(utterance) and not names_an_examination(utterance.strip(" .;")):
            notes.append(f"dropped (the indication on the title line): {utterance}")
            continue
        lead = _follow_up_place(utterance)
        place = lead or place
        # a sentence naming a place of its own keeps it for all its statements ("the ulnar
        # styloid is fractured, with displacement of the fragment"); the lead-in's own does not
        sited = not lead and bool(place) and bool(_site_names(utterance))
        pieces = atomize_sentence(utterance, notes)
        if pieces:
            title_line = None  # the findings have begun
        for piece in pieces:
            if place and not sited and not _site_names(piece) and not about_nothing(piece):
                piece = f"{piece.rstrip('.')} {place}."
            if (piece, line) not in read:  # a repeat on another line may be said of another place
                read.add((piece, line))
                sentences.append(piece)
                lines.append((line, said))
    return sentences, lines, notes


# how many of a report's first sentences may hold its title (the indication may come before it:
# "Rectal cancer after anterior resection, ... CT thorax/abdomen/pelvis (portal venous).")
_TITLE_SENTENCES = 3


def _title_line(utterances: list[tuple[int, str]]) -> int | None:
    """The report's first line when it titles the study ("Left calf MR. Acute calf pain playing
    tennis."): one of its first sentences, or their parts, names the examination
    (``names_an_examination``) and one says why it was made (``is_indication``). Its sentences
    before the first finding are the title, the comparison and the indication."""
    said = list(itertools.islice(((line, u) for line, u in utterances if u), _TITLE_SENTENCES))
    first = said[0][0] if said else None
    if first is None or not mentions_an_indication(" ".join(u for line, u in said if line == first)):
        return None  # the cheap test first, of them together: no indication's word, nothing to drop
    if not any(line == first and is_indication(u) for line, u in said):
        return None
    titled = any(line == first and names_an_examination(part.strip(" .")) for line, u in said
                 for part in u.split(";") if part)
    return first if titled else None


def atomize_kept_parts(sentence: str) -> list[str]:
    """The atoms of the parts of a dropped sentence that are not themselves dropped: "New
    pneumothorax despite a chest tube; recommend follow-up" is a recommendation, but what it
    says before the semicolon is a finding. For a report whose every sentence was dropped."""
    return [atom for part in sentence.split(";") if part.strip()
            for atom in atomize_sentence(part.strip())]


def _join_continuations(utterances: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Join a sentence that continues the previous one's finding to it, as one report rewritten
    sentence by sentence would say it ("..., the largest measures 8 mm"): on its own it names
    neither the finding nor its site, and nothing can pair with it. A finding that ends in a
    colon and lists how it looks line by line ("A mass in the right temporal lobe:" / "T1WI: low
    signal." / "T2WI: high signal.") gives each line its finding, as one sentence would; a short
    one that would be dropped as a heading, over lines that each name only a place, is said over
    those places (``_at_the_places``)."""
    out: list[tuple[int, str]] = []
    lead, listed = "", False
    places: list[str] = []  # the places listed under a finding's lead the atomiser would drop
    for line, utterance in utterances:
        if places and not (utterance and names_only_places(utterance.rstrip(" .;"))):
            out[-1] = (out[-1][0], _at_the_places(lead, places))
            lead, places = "", []
        if not utterance:  # a break (``report_text._template_heading``): nothing goes on across it
            out.append((line, utterance))
            lead, listed = "", False
            continue
        if lead and not listed and names_only_places(utterance.rstrip(" .;")) \
                and (places or (_names_finding_or_signal(lead) and _atomize_sentence_cached(f"{lead}:") is None)):
            places.append(utterance.rstrip(" .;"))  # "T2 hyperintense foci:" / "- left frontal lobe"
            continue
        if lead and _describes_only(canonical_text(utterance)):
            if not listed:
                out.pop()  # the lead-in says nothing its lines do not say again
            out.append((line, f"{lead}, {_continued(utterance)}"))
            listed = True
            continue
        lead, listed = "", False
        attribute = _ATTRIBUTE_LINE_RE.match(utterance)
        if attribute and out and out[-1][1] and not names_an_examination(out[-1][1].strip(" .")):
            said = utterance[attribute.end("side") + 1:] if attribute["side"] \
                and out[-1][1].startswith(attribute["side"]) else utterance  # its side said once
            out[-1] = (out[-1][0], _with_attribute(out[-1][1], _continued(said)))
            continue
        if out and out[-1][1] and (_CONTINUATION_RE.match(utterance) or _describes_the_finding_before(utterance)
                    or (_INFERENCE_WORD_RE.search(utterance) and _INFERENCE_ALONE_RE.fullmatch(utterance)
                        and _states_a_finding(out[-1][1]))) \
                and not _is_site(utterance) and not _edge_of_a_site(utterance) \
                and not names_an_examination(out[-1][1].strip(" .")):
            # (not a title's: "Pituitary MRI, pre/post gadolinium." over "Size: 24 mm x 20 mm -
            # no change." had put the mass's size into the title, dropped with it)
            out[-1] = (out[-1][0], f"{out[-1][1].rstrip(' .;')}, {_continued(utterance)}")
            continue
        out.append((line, utterance))
        if utterance.endswith(":"):
            lead = utterance[:-1].rstrip()
    if places:
        out[-1] = (out[-1][0], _at_the_places(lead, places))
    return out


_DENIAL_PART_RE = re.compile(r"(?:no|without|none)\b", re.IGNORECASE)


def _appearance_kept_with_its_finding(text: str) -> str:
    """A part after a semicolon that only says how the finding before it looks ("Echotexture solid,
    hypoechoic; lobulated contour; no calcifications.") joined to it with a comma: alone it was an
    abnormal statement about nothing."""
    parts = text.split(";")
    kept = [parts[0]]
    for part in parts[1:]:
        if not kept[-1].strip() or any(c.isdigit() for c in part) \
                or _DENIAL_WORD_RE.search(kept[-1].rsplit(",", 1)[-1]):
            # (not a size, which ``_CONTINUATION_RE`` gives its finding, nor after a denial,
            # which would deny it: "...; no enhancement; the largest measures 18 mm")
            kept.append(part)
            continue
        canon = canonical_text(part)
        # (not a sequence's reading: each is a statement of its own, ``_expand_sequences``)
        if not MR_SEQUENCE_RE.search(canon) and _describes_only(canon):
            kept[-1] = f"{kept[-1].rstrip()},{part}"
        else:
            kept.append(part)
    return ";".join(kept)


def _with_attribute(statement: str, attribute: str) -> str:
    """A lesion's statement with one more of its attributes (``_ATTRIBUTE_LINE_RE``), put before a
    denial that ends it: "Echotexture solid; no calcifications." and "Doppler: markedly vascular."
    had read "no calcifications, doppler markedly vascular", a vascular lesion denied."""
    head, _, last = statement.rstrip(" .;").rpartition(";")
    if head and _DENIAL_PART_RE.match(last.strip()):
        return f"{head}, {attribute.rstrip(' .;')};{last}."
    return f"{statement.rstrip(' .;')}, {attribute}"


def _at_the_places(lead: str, places: list[str]) -> str:
    """A finding's lead-in said over the places listed after it, as one sentence ("... lesions in A,
    B and C"), which the site list reads one statement per place: "T2 hyperintense foci:" over "-
    left frontal lobe" and "- right parietal lobe" had lost the finding (the lead-in is dropped as a
    heading, each place alone as a place named alone)."""
    listed = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"
    listed = listed[:1].lower() + listed[1:] if listed[1:2].islower() else listed
    at = " " if _ENDS_LOCATIVE_RE.search(lead) else " at " if all(_LEVEL_RE.match(p) for p in places) else " in "
    return f"{lead}{at}{listed}."


# A sentence that describes the finding before by a pronoun or its inside ("It is oval, with clear
# margins and an intact capsule.", "The internal echo is uniform."): alone it reads as a normal
# statement about nothing, which the same description inside one sentence does not make
_DESCRIBED_BEFORE_RE = re.compile(
    r"^(?:(?:it|this|they|these)\s+(?:is|are|appears?|shows?|has|have|demonstrates?|exhibits?|looks?)\b"
    r"|(?:the\s+|its\s+)?internal\s+(?:echo(?:es|genicity|texture)?|signal|density|attenuation|structure|contents?)\b)",
    re.IGNORECASE)


def _describes_the_finding_before(sentence: str) -> bool:
    """Whether ``sentence`` only describes the finding before it (``_DESCRIBED_BEFORE_RE``) in
    words that alone would read as normal ("clear margins", "uniform"): one that names a finding
    ("It is considered a hemangioma") or says nothing normal ("It is hyperintense on T2WI", which
    a pronoun gives the nearest finding's site) stays a statement of its own."""
    if sentence[:1] not in "ITit" or not _DESCRIBED_BEFORE_RE.match(sentence) or names_finding(sentence):
        return False
    return anatomy_lexicon().normal.search(canonical_text(sentence)) is not None


def _other_side_clause(text: str) -> str:
    """"The right vertebral artery is slender, the left is dominant" -> "...slender; the left
    vertebral artery is dominant" (``_OTHER_SIDE_CLAUSE_RE``), cut where the sides change."""
    m = _OTHER_SIDE_CLAUSE_RE.match(text)
    if not m or m["side"].lower() == m["other"].lower():
        return text
    return f"{m['first']}; the {m['other'].lower()} {m['organ']} {m['rest']}"


def _without_title(text: str) -> str:
    """"Facial bones, occipitomental and lateral views: A fracture of the left zygomatic arch.":
    a lead naming only the examination and its views says nothing of the patient; one naming a
    finding ("Postoperative status after bypass grafting, chest PA view: ...") stays."""
    m = _TITLE_LEAD_RE.match(text) if ":" in text else None
    if not m or _may_name_finding(m.group("lead")):
        return text
    return text[m.end():]


def _edge_of_a_site(sentence: str) -> bool:
    """"The posterior edge of the vertebral body does not protrude backward": an edge of a named
    site is a statement of its own, not the margin of the finding before it."""
    m = _EDGE_OF_RE.match(sentence)
    return m is not None and _is_site(m.group("site"))


def _continued(sentence: str) -> str:
    """A sentence going on another: its first letter in lower case, unless it starts an
    abbreviation ("T1WI", "DWI")."""
    return sentence[:1].lower() + sentence[1:] if sentence[1:2].islower() or sentence[1:2] == " " else sentence


def atomize_sentence(sentence: str, notes: list[str] | None = None) -> list[str]:
    """One report sentence -> its atomic sentences (possibly none)."""
    pieces = _atomize_sentence_cached(sentence)
    if pieces is None:
        if notes is not None:
            notes.append(f"dropped (comparison, technique or recommendation): {sentence}")
        return []
    return list(pieces)


@lru_cache(maxsize=50000)
def _atomize_sentence_cached(sentence: str) -> tuple[str, ...] | None:
    """Cached by sentence: reports repeat their sentences ("No pneumothorax."), and a report's
    sections are read again on their own. None: the sentence is dropped."""
    lex = anatomy_lexicon()
    text = sentence
    for pattern in lex.remove:
        text = pattern.sub("", text)
    # a removed comparison lead may leave its colon ("Compared with the previous MR dated ...:")
    text = _SPACE_BEFORE_PUNCTUATION_RE.sub(r"\1", _SPACES_RE.sub(" ", text)).lstrip(":").strip(" ,.;")
    text = _TECHNIQUE_LEAD_RE.sub("", text)
    lowered = text.lower()
    if "cdfi" in lowered or "doppler" in lowered:
        text = _DOPPLER_LEAD_RE.sub("", text)
    text = _CHANGE_AFTER_SEMICOLON_RE.sub(", ", _neither_nor(_without_title(text)))
    if "CB" in text or "MTT" in text or "TTP" in text or "Tmax" in text:
        text = _PARAMETER_AFTER_PLACE_RE.sub(_comma_before_parameter, text)
    if ";" in text:
        text = _appearance_kept_with_its_finding(text)
        if _INFERENCE_WORD_RE.search(text):
            text = _INFERENCE_AFTER_SEMICOLON_RE.sub(", ", text)
    if ", the " in text:
        text = _other_side_clause(text)
    if text and lex.drop.search(text.lower()):
        # "": the sentence is only technique or a request
        text = _before_a_dropped_tail(text) or _after_the_technique(text) or ""
    if not text or names_only_places(text) or _measures_a_place(text) or names_an_examination(text):
        return None
    if ":" in text or "(" in text:
        text = _place_list_written_out(text)
    text = _ONE_CONSTRUCT_RE.sub(_mask_and, _BETWEEN_RE.sub(_mask_between, text))
    out: list[str] = []
    for clause in (a for whole in _clauses(text) for c in _expand_predicates(whole)
                   for a in _expand_adjectives(c)):
        for item in (i for listed in _expand_finding_list(clause) for i in _expand_subject_list(listed)):
            for negated in (k for n in _expand_negated_list(item) for k in _expand_kinds(n)):
                for located in _expand_site_list(negated):
                    for sequence in _expand_sequences(located):
                        out.extend(_expand_sides(sequence))
    return tuple(_tidy(d).replace(_BETWEEN_AND, " and ") for s in out
                 if _has_content(s, sentence) and not _UNSEEN_BEFORE_RE.match(s) and not _measures_a_site(s)
                 and not _only_an_artefact(s) and not _only_how_well_seen(s) and not _dropped_part(s, text)
                 and not (s != text and names_an_examination(s.strip(' .;')))
                 for e in _split_extension_denial(s) for d in _split_device_denial(e))


# "<finding> in the following regions: A, B and C", "<finding>: A; B; C", "<finding> (A; B)": a
# finding, then the places it is seen at, listed after a colon or in brackets
_PLACE_LIST_RE = re.compile(
    r"^(?P<lead>[^:;()]*?[a-z0-9/)-])(?:\s+(?:at|in)\s+the\s+following\s+(?:regions?|locations?|sites?|areas?|places?))?"
    r"\s*(?::|\()\s*(?P<items>[^:()]+?)\)?\s*[.;]?$", re.IGNORECASE)
_PLACE_ITEM_SPLIT_RE = re.compile(r"\s*;\s*|\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)
# a lead that ends in a word saying where ("lesions in", "foci involving"): the places follow it
_ENDS_LOCATIVE_RE = re.compile(r"\b(?:in|within|at|of|involv(?:es|e|ing)|affect(?:s|ing)?|on|along|throughout)$",
                               re.IGNORECASE)


def _place_list_written_out(text: str) -> str:
    """"Patchy T2 hyperintense lesions in the following regions: the left frontal lobe, the right
    parietal lobe and the left occipital lobe", "... lesions involving: A; B; C" and "... lesions
    (A; B)" say the finding at each place as "... lesions in A, B and C" does: written so, the
    places are one list that the site list reads one statement per place (the items had been
    statements naming only a place, or one statement over the three places); so are spinal levels
    ("disc protrusions at: C3-4; C4-5; C5-6"). Unchanged unless every item names only a place or
    a level and what comes before them names a finding or an abnormal signal."""
    m = _PLACE_LIST_RE.match(text)
    if m is None:
        return text
    items = [i for i in _PLACE_ITEM_SPLIT_RE.split(m["items"]) if i]
    if len(items) < 2 or not all(names_only_places(i) or _LEVEL_RE.match(i) for i in items) \
            or not _names_finding_or_signal(m["lead"]):
        return text
    return _at_the_places(m["lead"], items)


# A request or a recommendation that opens a part of a sentence ("...; please correlate with
# HLA-B27", "..., follow-up is recommended")
_REQUEST_WORDS = r"please|kindly|recommend|suggest|advis|clinical correlation|correlat|follow[- ]?up"
_REQUEST_RE = re.compile(rf"^(?:{_REQUEST_WORDS})", re.IGNORECASE)


# How a measurement line ends (biometry gives weights and ages too: "EFW 1850 g", "GA 34 weeks"):
# the cheap test before the drop pattern, not a reading of sizes (``attributes.size`` reads lengths)
_UNITS = ("mm", "cm", " g", "kg", "ml", "weeks", "days")


def _dropped_part(part: str, whole: str) -> bool:
    """Whether a part cut from a sentence is a request or a measurement line the findings leave
    out, as they leave out a sentence that is one (``radsem.json`` drop_sentence): "...; please
    correlate with HLA-B27" opens its part, and "BPD 84 mm, HC 306 mm, AC 282 mm, FL 63 mm; EFW
    1850 g (<10th centile)" holds the biometry the same numbers alone on their line would drop,
    where the sentence's own test could not see them. Not a part that names a finding: one that
    opens with the examination's name ("CT venography filling defects ...") is a finding, not a
    title."""
    if part == whole:
        return False
    said = part.strip(" .;,")
    request = _REQUEST_RE.match(said) is not None
    if not (request or said.endswith(_UNITS)) or not anatomy_lexicon().drop.search(said.lower()):
        return False  # the cheap tests first: most parts neither ask nor end in a measurement
    return request or not names_finding(said)


# A clause that says contrast was given or a study was done, then what the images showed: "After
# contrast was administered, the lesion showed ring enhancement", "CT perfusion maps were obtained,
# showing that ..."
_TECHNIQUE_CLAUSE_RE = re.compile(
    r"^[^;:]*?\b(?:(?:contrast|contrast agent|contrast medium|gadolinium)\s+(?:was|were)\s+(?:administered|injected|given)"
    r"|(?:was|were)\s+(?:performed|obtained|acquired|done|reconstructed))\b"
    r"(?:[^,;:]*?[,;:]|(?=\s+(?:and|which)\s))\s*(?:(?:which|and|that)\s+)?"
    r"(?:(?:shows?|showed|showing|demonstrat\w*|reveal\w*)\s+(?:that\s+)?)?"
    r"(?P<rest>\S.*)$", re.IGNORECASE)


# "in the left insula CBF and CBV are decreased": a perfusion parameter (written as its
# abbreviation) that opens a clause after the place it is measured at, with no comma between
_PARAMETER_AFTER_PLACE_RE = re.compile(
    r"\b(?P<word>[a-z]+) (?=(?:only )?(?:r?CBF|r?CBV|MTT|TTP|Tmax)(?:,? (?:and )?(?:r?CBF|r?CBV|MTT|TTP|Tmax))*"
    r" (?:is|are|was|were)\b)")
# words a parameter's name follows inside a clause ("the CBF is ...", "with MTT ...")
_BEFORE_A_PARAMETER = frozenset({"the", "and", "or", "of", "that", "which", "with", "whose", "where", "while",
                                 "but", "no", "its", "their", "both", "whereas", "relative", "low", "high",
                                 "lower", "higher", "normal", "abnormal", "mean", "regional"})


def _comma_before_parameter(m: re.Match[str]) -> str:
    """A comma after the place a perfusion parameter's clause is about, so that a list of places
    ("in the left lentiform nucleus and insula CBF and CBV are decreased") ends where it ends."""
    word = m.group("word")
    if word in _BEFORE_A_PARAMETER or word.endswith(("ed", "ly")):
        return m.group(0)  # "delayed TTP is seen", "markedly ...": the parameter's own words
    return f"{word}, "


# a clause that asks for more or compares ("follow-up is recommended", "compared with ...")
_REQUEST_OR_COMPARISON_RE = re.compile(rf"(?:{_REQUEST_WORDS}|further|compared|comparison)", re.IGNORECASE)
# a clause that asks for more whatever it starts with: "urology opinion or follow-up recommended",
# "fine-needle aspiration is recommended", "for which referral is advised"
_REQUEST_CLAUSE_RE = re.compile(
    r"^for which\b|\b(?:recommended|advised|suggested|warranted|indicated)\W*$", re.IGNORECASE)
# where a sentence's clause ends and another may begin: "; ", ", ", ", and ", or "and" before a
# request ("... cannot be excluded and follow-up is advised")
_CLAUSE_BREAK_RE = re.compile(
    rf"\s*[;,]\s*(?:(?:and|so|thus|therefore|hence|but)\s+)?|\s+(?:and|so)\s+(?=(?:{_REQUEST_WORDS}|further)\b)",
    re.IGNORECASE)


def _before_a_dropped_tail(sentence: str) -> str | None:
    """What a sentence says before a clause that asks for more or compares, for which the drop
    patterns took the whole sentence, when that beginning names a finding or a place and no drop
    pattern takes it: "The splenium is not clearly displayed; partial agenesis cannot be excluded,
    and follow-up is recommended" had been dropped whole, findings and all, while the same
    findings said in two sentences were read; so had "a nodule ..., TI-RADS 5; fine-needle
    aspiration is recommended". None when no such clause ends it."""
    drop = anatomy_lexicon().drop
    for m in _CLAUSE_BREAK_RE.finditer(sentence):
        before, after = sentence[:m.start()], sentence[m.end():]
        if drop.search(before.lower()):
            return None  # what comes first is dropped itself
        asks = _REQUEST_OR_COMPARISON_RE.match(after) or (  # or asks in its last clause
            _REQUEST_CLAUSE_RE.search(after) and not _CLAUSE_BREAK_RE.search(after))
        if asks and drop.search(after.lower()):
            return before if names_site(before) or names_finding(before) else None
    return None


def _after_the_technique(sentence: str) -> str | None:
    """What a sentence the drop patterns take for technique says after the clauses that say
    contrast was given or a study was done, when that names a place or a finding of its own and is
    no technique itself ("After contrast was administered, the lesion showed ring enhancement" and
    "CT perfusion maps were obtained, showing that ..." had been dropped whole). None when nothing
    is left (the sentence is technique, a comparison or a request)."""
    m = _TECHNIQUE_CLAUSE_RE.match(sentence)
    if m is None:
        return None
    rest = m.group("rest")
    while (more := _TECHNIQUE_CLAUSE_RE.match(rest)) is not None:
        rest = more.group("rest")  # "CT perfusion was performed and the maps were reconstructed: ..."
    if anatomy_lexicon().drop.search(rest.lower()) or not (names_site(rest) or names_finding(rest)):
        return None
    return rest[:1].upper() + rest[1:]


# reader-v73: what hid a structure, said with its technical cause ("the tail is partially obscured by
# bowel gas", "only partly seen because of bowel gas"), or what limited the study ("sensitivity is
# reduced"): the quality of the images, as an artefact is, and no finding. Without such a cause
# the sentence stays a statement: an organ "not (clearly) visualized" may be absent, a sinus "well
# visualized" on a venogram is patent, and on a radiograph "the right costophrenic angle is
# obscured" is an opacity.
_SEEN_HOW_WELL_RE = re.compile(
    r"(?:the )?(?:[a-z'/-]+ ){0,5}?(?:(?:is|are|was|were|appears?) )?(?:only )?(?:partially |partly |incompletely "
    r"|poorly |suboptimally |not (?:well |fully |adequately |clearly )?)?"
    r"(?:obscured|seen|visible|visuali[sz]ed|demonstrated|assessed|evaluated|imaged|assessable|evaluable)"
    r" (?:due to|because of|owing to|secondary to|by) (?:the )?(?:overlying )?(?:bowel gas|gas|(?:body |patient )?habitus"
    r"|(?:acoustic )?shadowing|artefacts?|artifacts?|(?:patient )?motion|obesity|bowel contents)"
    r"|(?:the )?(?:sensitivity|visuali[sz]ation)(?: of (?:the )?(?:examination|study|scan))? (?:is |was )?"
    r"(?:limited|reduced|suboptimal|degraded)(?: (?:at|in|of|for) (?:the )?[a-z ]{1,30})?")


_SEEN_HOW_WELL_WORDS = ("due to", "because", "owing", "secondary", " by ", "sensitivity", "visualization", "visualisation")


def _only_how_well_seen(atom: str) -> bool:
    """Whether ``atom`` says only what hid something, or limited the study (``_SEEN_HOW_WELL_RE``)."""
    lower = atom.lower()
    if not any(word in lower for word in _SEEN_HOW_WELL_WORDS):
        return False  # the cheap test first: most statements give no cause and name no sensitivity
    return bool(_SEEN_HOW_WELL_RE.fullmatch(lower.strip(" .;")))


def _only_an_artefact(atom: str) -> bool:
    """Whether ``atom`` says only that the images hold an artefact (``_ARTEFACT_ONLY_RE``)."""
    lower = atom.lower()
    return ("artefact" in lower or "artifact" in lower) and bool(_ARTEFACT_ONLY_RE.fullmatch(atom.strip()))


def _measures_a_site(atom: str) -> bool:
    """Whether ``atom`` only measures one or more structures, naming no finding
    (``_SITE_MEASUREMENT_RE``): "Liver span 16 cm, spleen span 13 cm" and "the right kidney measures
    12 cm and the left kidney 11 cm" measure two."""
    if "mm" not in atom and "cm" not in atom:
        return False  # most statements measure nothing: the pattern need not run
    if all(_measures_one_site(part) for part in _MEASUREMENT_LIST_RE.split(atom.strip())):
        return True
    # "Testes right 45 x 28 mm, left 43 x 26 mm": the sides say which, the first part what; "Spleen
    # length 101 mm, thickness 36 mm" and "Pancreas head 23 mm, body 15 mm" measure the first's
    # other dimensions or parts
    first, *rest = _MEASUREMENT_LIST_RE.split(_SIDE_WORDS_RE.sub("", atom.strip()).strip())
    return _measures_one_site(first) and all(
        _BARE_AMOUNT_RE.fullmatch(part.strip(" .")) or _measures_a_part(part) or _measures_one_site(part)
        or _THAT_OF_THE_OTHER_RE.fullmatch(part.strip(" .")) is not None for part in rest)


def _measures_a_part(part: str) -> bool:
    """"body 15 mm", "thickness 36 mm": a part noun or a dimension and its amount, which say of
    the site a measuring line opened with."""
    m = _PART_AMOUNT_RE.fullmatch(part.strip(" ."))
    return m is not None and (m["part"] is None or m["part"].lower() in PART_NOUNS)


def _measures_one_site(part: str) -> bool:
    m = _SITE_MEASUREMENT_RE.match(part.strip())
    if not m:
        return False
    subject = m.group("of") or m.group("site") or m.group("short") or m.group("has")
    return _is_site(subject) and not names_finding(subject) and not _REFERS_TO_FINDING_RE.match(subject) \
        and not _LESION_LOOK_RE.search(canonical_text(subject))


def _mask_between(m: re.Match[str]) -> str:
    """"between A and B" with its "and" hidden, unless A and B are both level ranges."""
    if _is_level_range(m.group("first")) and _is_level_range(m.group("second")):
        return m.group(0)
    whole, start = m.group(0), m.start()
    return whole[:m.start("joiner") - start] + _BETWEEN_AND + whole[m.end("joiner") - start:]


def _mask_and(m: re.Match[str]) -> str:
    """"plates and screws" with its "and" hidden: one construct, not a list."""
    return m.group(0).replace(" and ", _BETWEEN_AND)


def _is_level_range(text: str) -> bool:
    """"L3-4", "C5/C6": a spinal level range, itself the space between two vertebrae."""
    return bool(_LEVEL_RE.match(text.strip())) and any(c in text for c in "-/\u2013\u2014")


# What goes wrong with a device, denied after it: "a plate in the distal fibula, in good position,
# with no loosening or breakage", "fixation hardware without evidence of loosening".
_COMPLICATION_RE = re.compile(COMPLICATION, re.IGNORECASE)
_DEVICE_DENIAL_RE = re.compile(
    rf"(?:,\s*|\s+)(?:(?:with|and)\s+no|without|no)\s+{DENIAL_HEDGE}(?P<denied>{COMPLICATION_LIST})"
    rf"(?P<tail>[^,;.]*)$", re.IGNORECASE)


# "the prosthetic head is not (obviously) dislocated": the same denial said with a verb, each
# participle written as the complication it denies
_COMPLICATION_NOUNS = {"dislocated": "dislocation", "loosened": "loosening", "displaced": "displacement",
                       "broken": "breakage", "migrated": "migration"}
_NOT_PARTICIPLE = f"(?:{'|'.join(_COMPLICATION_NOUNS)})"
_DEVICE_NOT_RE = re.compile(
    r"\s+(?:is|are)\s+not\s+(?:(?:obviously|clearly|definitely|significantly)\s+)?"
    rf"(?P<denied>{_NOT_PARTICIPLE}(?:\s*(?:,\s*|,?\s*or\s+){_NOT_PARTICIPLE})*)(?P<tail>[^,;.]*)$", re.IGNORECASE)
_PROCEDURE_RE = re.compile(r"\b(?:after|following|post)\s+[^,;:.]*")
# "the fixation device demonstrates | no evidence of loosening": the verb went with the denial
_TRAILING_VERB_RE = re.compile(
    r"\s+(?:shows?|showing|demonstrates?|demonstrating|reveals?|exhibits?|has|have|is|are)$", re.IGNORECASE)


# "..., not extending into the fourth-fifth intermetatarsal joint": a fracture said with where it
# does not reach
_EXTENSION_DENIAL_RE = re.compile(
    r",\s*(?:(?:which|that|and)\s+)?(?:(?:does|do)\s+not\s+(?:extend|involve|reach|enter)"
    r"|not\s+(?:extend|involv|reach|enter)ing|without\s+(?:extending|extension))"
    r"(?:\s+(?:in(?:to)?|to))?\s+(?P<place>(?:the\s+)?[^,;]*?\b(?:joints?|articular\s+surfaces?|articulations?))(?=\s*(?:[,;.]|$))",
    re.IGNORECASE)


def _split_extension_denial(atom: str) -> list[str]:
    """A fracture stated with the joint it does not reach is two findings, as a report that writes
    "The fracture does not extend into the joint." on its own line says it: the fracture at its
    bone, and the fracture denied at the joint. Said in one, the joint had been the fracture's
    place too."""
    m = _EXTENSION_DENIAL_RE.search(atom) if "fracture" in atom.lower() else None
    if m is None or "fracture" not in atom[:m.start()].lower():
        return [atom]
    rest = atom[m.end():].strip(" .")
    return [f"{atom[:m.start()].rstrip()}{', ' + rest.lstrip(', ') if rest else ''}.",
            f"The fracture does not extend into {m['place']}."]


def _split_device_denial(atom: str) -> list[str]:
    """A device stated with a denial of what may go wrong with it is two findings: the device
    (abnormal: it is there) and the denial (normal), one per complication, as a report that
    writes "No loosening or breakage of the hardware." on its own line says it."""
    m = _DEVICE_DENIAL_RE.search(atom) or _DEVICE_NOT_RE.search(atom)
    if not m:
        return [atom]
    left = _TRAILING_VERB_RE.sub("", atom[:m.start()].strip(" ,;"))
    said = canonical_text(left.replace(_BETWEEN_AND, " and "))
    # a device named by the procedure that placed it ("plate and screws after internal fixation")
    # is not the one the denial is about
    procedure = [m.span() for m in _PROCEDURE_RE.finditer(said)]
    found = [m for m in anatomy_lexicon().devices.finditer(said)
             if not any(s <= m.start() < e for s, e in procedure)]
    if not found:
        return [atom]
    # the device named last, nearest the denial; adjacent device words are one name
    # ("fixation hardware")
    start = found[-1].start()
    for before in reversed(found[:-1]):
        if said[before.end():start].strip():
            break
        start = before.start()
    device = said[start:found[-1].end()]
    return [left, *(f"No {_COMPLICATION_NOUNS.get(item.lower(), item)} of the {device}{m.group('tail')}"
                    for item in _COMPLICATION_RE.findall(m.group("denied")))]


# "Follow-up after internal fixation of a fracture of the right tibia: the fracture line is
# blurred. The fracture ends are aligned.": the lead-in goes (radsem.json's removal phrase of the
# same words), and the one place it names is where the report's findings after it that name none are.
_FOLLOW_UP_LEAD_RE = re.compile(
    r"^(?:follow[- ]?up|re-?examination|review) (?:after|of|for|post)\b([^:;.]*):", re.IGNORECASE)


def _follow_up_place(sentence: str) -> str | None:
    """"in the right tibia" for a follow-up lead-in naming one site and at most one side."""
    m = _FOLLOW_UP_LEAD_RE.match(sentence.strip())
    if not m:
        return None
    sites = _site_names(m.group(1))
    sides = {s.lower() for s in _SIDE_RE.findall(m.group(1))}
    if len(sites) != 1 or len(sides) > 1:
        return None
    return " ".join(["in the", *sides, *sites])


def _neither_nor(text: str) -> str:
    """"There is neither effusion nor pneumothorax" -> "There is no effusion or pneumothorax"
    (then one negated sentence per item); "is neither enlarged nor displaced" -> "is not
    enlarged or displaced" (one sentence, both words denied); "Neither the right nor the left
    ovary is visualized" -> "the right and the left ovary is not visualized"."""
    if not _NEITHER_RE.search(text):
        return text
    text = _NEITHER_SUBJECTS_RE.sub(r"\g<a> and \g<b> \g<verb> not ", text)
    text = _THERE_NEITHER_RE.sub(r"\1 no", text)
    text = _VERB_NEITHER_RE.sub(r"\1 not", text)
    text = _LEADING_NEITHER_RE.sub("No", text)
    text = _NEITHER_WORD_RE.sub("no", text)
    return _NOR_RE.sub("or", text)


def _clauses(text: str) -> list[str]:
    out = []
    for clause in _cut_clauses(text):
        if clause and clause.strip(" ,"):
            for piece in _split_effect(clause.strip(" ,")):
                out.extend(_split_attached_findings(piece))
    return out


def _split_effect(clause: str) -> list[str]:
    """"A large opacity in the right lower zone, obscuring the right hemidiaphragm and the
    costophrenic angle" -> the opacity, and "the right hemidiaphragm and the costophrenic angle
    are obscured": what the finding does to other structures is a finding at their sites."""
    m = _EFFECT_RE.search(clause)
    if not m or not _may_name_finding(clause[:m.start()]) or not _is_site(m.group("object")):
        return [clause]
    obj = m.group("object").strip()
    verb = "are" if re.search(r"\band\b", obj) or obj.lower().endswith("s") else "is"
    done = f"{m.group('verb')[:-3]}ed"  # obscuring -> obscured, effacing -> effaced
    return [clause[:m.start()], f"{obj[:1].upper()}{obj[1:]} {verb} {done.lower()}"]




# a finding named with its place, however long, before its verb (", the patchy opacity in the ... has been absorbed")
_COMMA_FINDING_RE = re.compile(r",\s+(?:and\s+)?(?=(?:the|a|an)\s+(?P<subject>(?:[^,;:.]|\.(?=\d)){3,120}?)"
                               r"\s+(?:is|are|was|were|has|have)\b)", re.IGNORECASE)
# "..., an aneurysm is considered": what the finding before is taken to be, not another finding
_INFERRED_RE = re.compile(
    r"\s+(?:is|are)\s+(?:(?:first|most|more|highly)\s+)?(?:considered|suspected|likely|favou?red|possible|probable|"
    r"suggested|diagnosed|thought)\b", re.IGNORECASE)
# a subject that points back at the finding before ("its margin", "their screws")
_POINTER_SUBJECT_RE = re.compile(r"(?:its|their|this|these|that|those)\b", re.IGNORECASE)


def _comma_statements(text: str) -> list[str]:
    """Cut a run of statements joined by commas ("The liver is normal in size, the spleen shows
    no lesion, no ascites is seen") into its statements."""
    cuts = sorted([*((m, "site") for m in _COMMA_STATEMENT_RE.finditer(text)),
                   *((m, "seen") for m in _COMMA_SEEN_RE.finditer(text)),
                   *((m, "finding") for m in _COMMA_FINDING_RE.finditer(text))], key=lambda c: c[0].start())
    pieces, start = [], 0
    for index, (m, kind) in enumerate(cuts):
        if m.start() < start:
            continue
        left = text[start:m.start()]
        # the verb of the statement before, not of a lead-in ("... shows Ligaments: the anterior
        # and posterior cruciate ligaments are intact" is one subject list)
        said = _ATTRIBUTIVE_PARTICIPLE_RE.sub("", _SAID_THAT_RE.sub("", left.rsplit(":", 1)[-1], count=1))
        end = next((c.start() for c, _ in cuts[index + 1:] if c.start() > m.end()), len(text))
        right = text[m.end():end]
        if not _VERB_RE.search(said) and not _DISC_VERB_RE.search(said) \
                and not (kind == "site" and _verbless_statement(said, right)):
            continue
        if "," not in m.group(0) and not _VERB_RE.search(said) and left.split() \
                and _MODIFIER_RE.search(left.split()[-1]):
            continue  # "No dilation of the intrahepatic and extrahepatic bile ducts is seen": two
            # adjectives share one noun, not a statement about the extrahepatic ducts after a denial
        if kind == "site" and _denied_list_goes_on(said, right):
            continue
        if kind == "finding":
            cut = _names_finding_or_signal(m.group("subject")) \
                and not _INFERRED_RE.match(text, m.end("subject")) and _seen_elsewhere(left, right)
        else:
            cut = _statement_of_its_own(m) if kind == "site" else _seen_elsewhere(left, right)
        if cut or _NOTHING_MORE_RE.match(right):
            pieces.append(left)
            start = m.end()
    return [*pieces, text[start:]]


# "CTA shows that ...": what a study is said to show is the statement, its verb not the statement's
# ("CTA shows that the middle and distal segments of the basilar artery are not visualized" is one)
_SAID_THAT_RE = re.compile(
    r"^[^,;]*?\b(?:shows?|showed|demonstrates?|demonstrated|reveals?|revealed|indicates?|indicated)\s+that\s+",
    re.IGNORECASE)


# "the measured values of ...": a verb's participle after an article describes its noun, it is no verb
_ATTRIBUTIVE_PARTICIPLE_RE = re.compile(r"\b(?:the|a|an|its|their)\s+[a-z]+ed\b", re.IGNORECASE)


def _denied_list_goes_on(left: str, right: str) -> bool:
    """"No enlargement of the liver, spleen or pancreas is seen": after a denial with no verb of
    its own, ", <sites> is seen" and nothing more goes on with the denial's sites (a place is not
    said to be seen for its own sake), not a statement of its own as "No fracture, the ankle joint
    is congruent" is."""
    return not _VERB_RE.search(left) and bool(_LEADING_DENIAL_RE.match(left.strip())) \
        and _ONLY_SEEN_RE.match(right.strip(" .")) is not None


def _statement_of_its_own(m: re.Match[str]) -> bool:
    """Whether ", <subject> <verb> ..." after a complete statement says something of its own: a
    place ("..., the spleen is normal") or, after a comma, a device ("The fracture line is
    blurred, the internal fixation is in good position"); not a finding's detail ("..., its margin
    is clear") nor the second half of a subject ("the plates and their screws are ...")."""
    subject = m.group("subject")
    if _is_site(subject):
        return not names_finding(subject)
    return "," in m.group(0) and not _POINTER_SUBJECT_RE.match(subject) \
        and anatomy_lexicon().devices.search(canonical_text(subject)) is not None


def _verbless_statement(left: str, right: str) -> bool:
    """Whether ``left``, which has no verb, is a statement before ", the <place> ..." all the same:
    a finding denied, or named before a place called normal or denied something. "No fracture,
    the ankle joint is congruent" is two statements ("no" was said of the joint), as are "Mild
    soft tissue swelling, the joint space is not narrowed" (the swelling was "not narrowed") and
    "A fracture of the lateral malleolus, the ankle joint is congruent"."""
    return names_finding(left) and (bool(_LEADING_DENIAL_RE.match(left.strip()))
                                     or bool(_DENIAL_WORD_RE.search(right)) or _is_normal(right))


def _seen_elsewhere(left: str, right: str) -> bool:
    """Whether ", <something> is seen ..." after a statement is a statement of its own: a denial
    after a normal statement or of something at another place ("The liver is normal in size, no
    focal lesion is seen"; not "A cyst in the right kidney, no enhancement is seen", which says
    how the cyst looks), or something seen at a place of its own (another site, side or spinal
    level) or a finding the statement before did not name ("..., callus is seen" is not one:
    callus only says how a fracture heals)."""
    new_places = bool(_site_names(right) - _site_names(left)) or bool(_sides_named(right) - _sides_named(left)) \
        or bool(_levels_named(right) - _levels_named(left))
    if _LEADING_DENIAL_RE.match(right):
        return new_places or not names_finding(left)
    return new_places or _another_finding(left, right)


def _another_finding(left: str, right: str) -> bool:
    """Whether ``right`` names a finding ``left`` does not: not a word that only describes a
    finding (margins, density, oedema around it), nor "lesion" for the mass named before."""
    before = _finding_words(left)
    new = _finding_words(right) - before - said_of_the_finding_before()
    if before & _GENERIC_FINDINGS:
        new -= _GENERIC_FINDINGS
    return bool(new)


_GENERIC_FINDINGS = frozenset({"lesion", "lesions", "mass", "masses", "focus", "foci", "abnormality"})


def _levels_named(text: str) -> set[str]:
    """Spinal levels, written alike ("C5/6", "c5-6" and "C5-C6" are one)."""
    return {_LEVEL_JOINER_RE.sub("-", m.group(0).lower()) for m in _ANY_LEVEL_RE.finditer(text)}


def _sides_named(text: str) -> set[str]:
    return {m.group(0).lower() for m in _SIDE_RE.finditer(text)}


def _finding_words(text: str) -> set[str]:
    """The abnormality words a text names (lower case): what tells one finding from another."""
    return {m.group(0).lower() for m in anatomy_lexicon().abnormal.finditer(canonical_text(text))}


# "X, except for Y", "no X other than Y", "apart from Y, X": Y is a finding of its own, and X is
# said of everything else. A place after the cue ("except in the left lobe") limits X instead.
_EXCEPTION = (r"(?:except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|save\s+for"
              r"|with\s+the\s+exception\s+of)")
_NOT_A_FINDING_AFTER = r"(?!(?:of|in|at|on|within|where|when|that|as|to|the\s+size)\b)"
_EXCEPTION_RE = re.compile(rf",?\s+{_EXCEPTION}\s+{_NOT_A_FINDING_AFTER}(?P<exception>[^,;]+)",
                           re.IGNORECASE)
_LEADING_EXCEPTION_RE = re.compile(
    rf"^{_EXCEPTION}\s+{_NOT_A_FINDING_AFTER}(?P<exception>[^,]+),\s*(?P<rest>.+)$", re.IGNORECASE)
_FIRST_DENIAL_RE = re.compile(r"\b(no|without)\s+(?!other\b|further\b|additional\b)", re.IGNORECASE)
# Words that say a statement is about everything else ("no OTHER lesion in the liver",
# "otherwise unremarkable"): the exception's rest is written with one, and the pairing reads them
# (``compatibility.denies``: such a denial says nothing against a finding). The pattern reads
# lower-case text, as the pairing reads canonical text.
ELSEWHERE_WORDS = ("other", "otherwise", "remaining", "rest", "else", "elsewhere", "additional", "further",
                   "besides", "except")
ELSEWHERE_RE = re.compile(rf"\b(?:{'|'.join(ELSEWHERE_WORDS)})\b")


def _split_exception(text: str) -> list[str]:
    """"No lymphadenopathy other than a 9 mm node in the left axilla" -> "No other
    lymphadenopathy" and "a 9 mm node in the left axilla", as a report writing the node first
    and then "no other lymphadenopathy" says it: read whole, the sentence was one statement both
    denying and stating. What the rest says is said of everything else ("no other ...",
    "otherwise ..."), so it denies nothing the exception states."""
    m = _LEADING_EXCEPTION_RE.match(text)
    if m:
        exception, rest = m.group("exception"), m.group("rest")
    else:
        m = _EXCEPTION_RE.search(text)
        if not m:
            return [text]
        exception, rest = m.group("exception"), text[:m.start()] + text[m.end():]
    denial = _FIRST_DENIAL_RE.search(rest)
    # an exception to a denial is one of the denied findings, whatever its words ("no enlarged
    # lymph nodes except a 12 mm node in the right hilum")
    if not (denial or names_finding(exception)) or not rest.strip(" ,"):
        return [text]
    if len(_CONTENT_WORD_RE.findall(exception)) < 2:
        # "... except for a cyst": a one-word statement cut from a sentence says nothing alone
        # (``_has_content``) and would be dropped with its finding; the sentence stays whole
        return [text]
    if denial:
        rest = f"{rest[:denial.end()]}other {rest[denial.end():]}"
    elif not ELSEWHERE_RE.search(rest.lower()):
        rest = f"Otherwise {_continued(rest)}"
    return [rest, exception]


def _cut_clauses(text: str) -> list[str]:
    """Cut where a new statement starts, but not before one that only goes on describing the
    finding ("; the largest measures 7 mm"); a cut at ", and ..." needs a statement on both sides,
    so a list is kept whole: "The trachea, right main bronchus, and left main bronchus are
    patent" (the left part is the start of a subject list) and "... in the frontal lobes,
    centrum semiovale, and bilateral basal ganglia" (the right part only names a site)."""
    pieces, start = [], 0
    for m in _CLAUSE_SPLIT_RE.finditer(text):
        left, right = text[start:m.start()], _until_next_cut(text, m.end())
        if _CONTINUATION_RE.match(right) and not _is_site(right) and _may_name_finding(left) \
                and not _LEADING_DENIAL_RE.match(left.lstrip()):
            continue  # "...; the largest measures 7 mm": it goes on describing the finding
        if m.group(0).lstrip(" ,").lower().startswith(("although", "though")) \
                and not (names_finding(right) and names_finding(left)):
            continue  # ", although this cannot be fully assessed": a limit of the study, not a finding
        if m.group(0).lstrip(" ,").lower().startswith("and") and (
                (not _VERB_RE.search(left) and _VERB_RE.search(right) and not _whole_denial(left)
                 and not _verbless_finding(left))
                or (_is_site(right) and not names_finding(right) and not _VERB_RE.search(right))):
            continue
        pieces.append(left)
        start = m.end()
    pieces.append(text[start:])
    return [p for piece in pieces for part in _split_exception(piece) for p in _comma_statements(part)]


def _verbless_finding(left: str) -> bool:
    """"Severe stenosis of the left internal carotid artery, and the middle cerebral artery is not
    visualized": a finding named without a verb before ", and" is a statement of its own, not the
    start of a subject list (one with a comma may be: "The trachea, right main bronchus, and ...")."""
    return "," not in left and names_finding(left)


def _whole_denial(left: str) -> bool:
    """"No fluid around the liver, and the spleen is normal": a denial of one thing before ", and"
    is a statement of its own, not the start of a subject list ("No effusion, pneumothorax, and
    ..." may be one, so a denial with a comma in it is not taken as whole)."""
    return bool(_LEADING_DENIAL_RE.match(left.lstrip())) and "," not in left


def _until_next_cut(text: str, start: int) -> str:
    m = _CLAUSE_SPLIT_RE.search(text, start)
    return text[start:m.start() if m else len(text)]


# ", with <finding>, is seen in <site>": a finding set between a subject and its predicate
_ASIDE_RE = re.compile(r"(?P<finding>[^,]+),\s+(?P<predicate>(?:is|are|was|were)\s.+)", re.IGNORECASE | re.DOTALL)


def _joints(clause: str) -> list[tuple[int, int, str]]:
    """Where ``clause`` may attach a second finding: (start, end, the joining words), in order.
    The comma-less form is looked for only in a clause that has its words (most have not)."""
    found = [(m.start(), m.end(), m.group(0)) for m in _WITH_RE.finditer(clause)]
    lowered = clause.lower()
    if "(" in clause:  # "a cyst (4 HU, no enhancement) in the right kidney": what a bracket holds
        found = [j for j in found if not _in_brackets(clause, j[0])]  # describes its finding
    if " and " in lowered:
        found += [(m.start(), m.end(), m.group(0)) for m in _AND_ANOTHER_RE.finditer(clause)]
        found.sort()
    if " without " in lowered:  # "thickening without effusion": a finding of its own denied
        found += [(m.start(), m.end(), m.group(0)) for m in _BARE_WITHOUT_RE.finditer(clause)
                  if _denies_one_apart(clause[m.end():]) and not _in_brackets(clause, m.start())]
        found.sort()
    if " with " in lowered and ("size" in lowered or "shape" in lowered):
        found += [(m.start("joiner"), m.end("joiner"), m.group("joiner"))
                  for m in _SIZE_WITH_RE.finditer(clause)]
        found.sort()
    return found


# " without " with no comma before it
_BARE_WITHOUT_RE = re.compile(r"(?<!,)\s+without\s+", re.IGNORECASE)


def _in_brackets(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` lies inside a bracket opened before it."""
    before = text[:at]
    return before.count("(") > before.count(")")


def _split_attached_findings(clause: str) -> list[str]:
    """Cut ", with <finding>" off when both halves state an abnormal finding of their own, and
    ", with no <finding> in <site>" off a finding: a denial about another site ("The heart is
    enlarged, with no abnormality in the pericardium") is a statement of its own, while one
    without a site ("a cyst, with no enhancement") describes the finding and stays."""
    lex = anatomy_lexicon()
    for start, end, joiner in _joints(clause):
        left, right = clause[:start], clause[end:]
        word = joiner.strip(" ,").lower()
        bare_and = joiner[:1].isspace() and word == "and"
        if bare_and and right[:3].lower() == "no ":
            if _DENIAL_WORD_RE.search(left) or not _denies_one_apart(right):
                continue  # "no effusion and no pneumothorax": a list of denials, read as it was;
                # "a fracture with height loss and no retropulsion" denies a finding of its own
        elif bare_and and not (names_site(left) and names_site(right) and _may_name_finding(left)):
            continue  # "a nodule and a cyst in the liver": one place for both, said once
        without = word == "without"
        denial = without or right.lower().startswith(("no ", "without "))
        if _LEVEL_RE.match(right.split(maxsplit=1)[0].rstrip(",")):
            continue  # ", and C6/7": the last item of a list of levels, not a second finding
        joined_by_and = word == "and"
        if joined_by_and and (_FIRST_PREDICATE_RE.match(right) or re.match(r"[\w-]+,", right)):
            continue  # ", and demonstrates ...": the same subject's next predicate; ", and course,
            # is ...": the last item of a list, not a finding of its own
        first = right.split(",", 1)[0]
        if joined_by_and and "," in right and _is_site(first) and not _may_name_finding(first):
            continue  # ", and medullary cistern, with ...": the last site of a list
        item = left.rsplit(",", 1)[-1].split()
        if joined_by_and and len(item) == 1 and _MODIFIER_RE.search(
                item[0]) and _MODIFIER_RE.search(right.split(maxsplit=1)[0]):
            continue  # "spotty, linear, and patchy shadows": the adjectives share one noun
        if _SIZE_CHANGE_RE.match(right) or _STEP_OFF_RE.match(right) \
                or (_CONTINUATION_RE.match(right) and not names_site(right)):
            continue  # ", with an increased size", ", with a clear boundary": how the finding has
            # changed or looks, not a second one (its boundary with another organ is one)
        said = canonical_text(right)  # read only for a candidate the cheap checks left
        if _describes_only(_TRAILING_CHANGE_RE.sub("", said)):
            continue  # ", with low signal on T1WI" (", ..., larger than before"): how the finding
            # looks, and how it changed, not a second finding
        if (lex.abnormal.search(said) or lex.neutral.search(said) or lex.devices.search(said)) \
                and (names_finding(left) or _is_normal(left) or _looks_abnormal_elsewhere(left, right)
                     or not joiner.startswith(",")) \
                and not denial:
            aside = _ASIDE_RE.match(right)
            if aside:  # "Nodular areas, with calcification, are seen in the thyroid": one predicate
                predicate = aside.group("predicate")
                left, right = f"{left} {predicate}", f"{aside.group('finding')} {predicate}"
            if bare_and:
                left = _with_shared_predicate(left, right)
            return [left, *_split_attached_findings(right)]
        if denial and names_finding(left) and (_elsewhere(left, right, without) or _other_side(left, right)
                                               or _denies_one_apart(right)):
            return [left, f"No {_INDEFINITE_RE.sub('', right.lstrip())}" if without
                    else f"{right[:1].upper()}{right[1:]}"]
    return [clause]


# "... and an empty sella are considered": the predicate the last of two findings ends with
_SHARED_PREDICATE_RE = re.compile(
    r"\s(?:is|are)\s+(?P<predicate>(?:(?:also|probably|likely|possibly)\s+)?(?:considered|seen|noted|present|"
    r"suspected|identified|visible|observed|demonstrated|likely|possible)\b[^,;]*)$", re.IGNORECASE)
_OWN_VERB_RE = re.compile(r"\b(?:is|are|was|were|seen|noted|shows?|has|have|contains?|demonstrates?)\b", re.IGNORECASE)


def _with_shared_predicate(left: str, right: str) -> str:
    """"Ischemic white matter changes and an empty sella are considered": the first finding, which
    has no verb of its own, takes the predicate the second ends with ("... changes are
    considered"), so that neither loses its certainty."""
    predicate = _SHARED_PREDICATE_RE.search(right)
    if predicate is None or _OWN_VERB_RE.search(left) or "," in right[:predicate.start()]:
        return left
    return f"{left} are {predicate['predicate']}"


def _denies_one_apart(right: str) -> bool:
    """", with no radiopaque foreign body" after a finding: a denial of a finding of its own
    (``anatomy.denied_apart``), every item of it, not of how the finding before looks."""
    denied = _LEADING_DENIAL_RE.sub("", right.strip())
    items = _split_items(denied)
    return bool(items) and all(
        denied_apart().fullmatch(_LEADING_ARTICLE_RE.sub("", _INDEFINITE_RE.sub("", i))) for i in items)


# "without a fracture line": "a" before a denied finding, left out when it is written "No fracture line"
_INDEFINITE_RE = re.compile(r"^an?\s+", re.IGNORECASE)


def _elsewhere(left: str, right: str, without: bool) -> bool:
    """The denial names a site the finding does not: "The heart is enlarged, with no abnormality
    in the pericardium". After "without", a site of the same organ ("a focal lesion ..., without
    contact with the prostatic margin") says how the finding lies, so only another organ counts
    ("..., without portosystemic venous shunt")."""
    theirs, ours = _site_names(right), _site_names(left)
    if not without:
        return bool(theirs - ours)
    lex = anatomy_lexicon()
    return any(not any(lex.related(x, y) for y in ours) for x in theirs)


def _other_side(left: str, right: str) -> bool:
    """"moderate left foraminal narrowing, with no narrowing of the right foramina": the denial
    names only the other side, so it is said of another place than the finding."""
    theirs = {w.lower() for w in _SIDE_RE.findall(right)}
    ours = {w.lower() for w in _SIDE_RE.findall(left)}
    return bool(theirs and ours and not theirs & ours)


def _expand_predicates(clause: str) -> list[str]:
    """"The RCA contains plaque and demonstrates stenosis" -> one sentence per predicate."""
    verb = _PREDICATE_START_RE.search(clause)
    if not verb or verb.start() == 0:
        return [clause]
    subject = clause[:verb.start()].strip()
    if _NEGATION_OR_PREPOSITION_RE.search(subject):
        return [clause]
    parts = _SECOND_PREDICATE_RE.split(clause[verb.start():])
    if len(parts) < 2:
        return [clause]
    return [f"{subject} {_ALSO_RE.sub('', part.strip())}" for part in parts]


_LIST_COMMA_RE = re.compile(r"\s*,\s*")
# a list that denies, or offers alternatives ("Negative for pneumothorax, pleural effusion, or
# pneumoperitoneum"): its items are not stated
_LIST_DENIED_RE = re.compile(
    r"\b(?:no|not|nor|neither|none|without|negative|free|absent|absence|exclude[ds]?|ruled|or|versus|vs)\b",
    re.IGNORECASE)
_COMPARED_RE = re.compile(r"\b(?:from|since|than|compared|prior|previous(?:ly)?|before|ago)\b", re.IGNORECASE)
# a part that says how much of the finding before, which of it, or what it does ("~30% height
# loss", "largest on the left", "thickened to 4 mm", "causing mild compression of the sac")
_PART_OF_THE_FINDING_RE = re.compile(
    r"^(?:[~<>]|approx|about|around|\d|(?:the\s+|its\s+)?(?:largest|biggest|smallest|larger|smaller|dominant|some|one|most)\b"
    r"|[a-z]+ed\s+(?:to|by|at|up|with|in|on|into|\d)|[a-z]+ing\b)", re.IGNORECASE)
_CAUSE_RE = re.compile(r"\b(?:due to|secondary to|caused by|because of|related to|owing to)\b", re.IGNORECASE)


def _expand_finding_list(clause: str) -> list[str]:
    """"Lungs: hazy hila, increased interstitial markings, Kerley B lines at both bases": a
    telegraphic list of findings, each its own statement, as a report writing them in sentences
    says them. Only a list with no verb whose every part names a finding of its own (none says
    what the one before is, how big, what it does, how it changed, or where it lies)."""
    # the cheap tests first (this runs on every clause): most lists are denials ("No effusion,
    # pneumothorax or consolidation") or name no finding in some part
    if "," not in clause or _LIST_DENIED_RE.search(clause) or "XXXX" in clause:
        return [clause]  # (nor where a de-identification mask hides a word: "..., XXXX atelectasis")
    parts = [p for p in _LIST_COMMA_RE.split(clause.strip(" .;")) if p]
    if len(parts) < 2 or any(_MODIFIER_RE.search(p.split()[-1]) for p in parts[:-1]) \
            or any(len(p.split()) < 2 or _APPOSITIVE_RE.match(p) or _SAID_OF_THE_FINDING_RE.match(p)
                   or _PART_OF_THE_FINDING_RE.match(p) for p in parts):
        return [clause]  # "widened, irregular physis": adjectives of one noun; "..., 3 cm"
    if _COMPARED_RE.search(clause) or _CAUSE_RE.search(clause) or _VERB_RE.search(clause):
        return [clause]  # "..., increased from 45 mm"; "stenosis due to disc bulge, facet hypertrophy"
    if not all(names_finding(p) for p in parts) \
            or any(names_device(canon) or _describes_only(canon) for canon in map(canonical_text, parts)):
        # "..., marked heterogeneous enhancement", "healing fracture, volar plate and screw
        # fixation": the finding's look or treatment
        return [clause]
    return [f"{p[:1].upper()}{p[1:]}." for p in parts]


def _expand_adjectives(clause: str) -> list[str]:
    """"The gallbladder wall is thickened and edematous" -> one sentence per finding, as a
    report that says each in its own sentence does; only when each word names a finding alone
    ("small and round" describe one)."""
    m = _TWO_ADJECTIVES_RE.match(clause)
    if not m or not all(names_finding(m.group(k)) for k in ("first", "second")):
        return [clause]
    return [f"{m.group('subject')}{m.group(k)}{m.group('tail')}" for k in ("first", "second")]


def _expand_sequences(clause: str) -> list[str]:
    """One statement per MR sequence: "a lesion with low signal on T1WI and high signal on T2WI
    and DWI" -> "a lesion with low signal on T1WI", "... high signal on T2WI", "... high signal on
    DWI", as a report written one line per sequence says it. Only a run of sequence readings
    joined by "and", commas or a verb is cut; the words before and after it go with each one.
    Restricted diffusion is its two readings ("high signal on DWI and low signal on ADC"), so it
    is cut as a report that writes them out is."""
    clause = _sequences_written_out(_restricted_diffusion_written_out(clause))
    if len(MR_SEQUENCE_RE.findall(clause)) < 2:
        return [clause]  # fewer than two sequences named: nothing to cut (most clauses)
    run: list[re.Match[str]] = []
    for unit in _SEQUENCE_READING_RE.finditer(clause):
        if run and not _SEQUENCE_GAP_RE.fullmatch(clause[run[-1].end():unit.start()]):
            if _sequence_count(run) > 1:
                break
            run = []
        run.append(unit)
    if _sequence_count(run) < 2:
        return [clause]
    head, tail = clause[:run[0].start()], clause[run[-1].end():]
    return [f"{head}{reading}{tail}" for unit in run for reading in _one_per_sequence(unit.group(0))]


# "on both T1WI and T2WI": "both" counts the sequences of the list, which is cut as without it
_BOTH_SEQUENCES_RE = re.compile(rf"\bboth\s+(?={MR_SEQUENCE}\s*(?:/|,|and)\s*)", re.IGNORECASE)
# "T1- and T2-weighted images": the first sequence's name written short, as "T1-weighted"
_SUSPENDED_SEQUENCE_RE = re.compile(r"\b(T[12]|PD)-\s+(and|or)\s+(?=(?:T[12]|PD)-weighted\b)", re.IGNORECASE)


def _sequences_written_out(clause: str) -> str:
    """A list of MR sequences as ``_expand_sequences`` reads one: "high signal on both T1WI and
    T2WI" and "hyperintense on T1- and T2-weighted images" name two sequences as "on T1WI and T2WI"
    and "on T1-weighted and T2-weighted images" do."""
    if "-" in clause:
        clause = _SUSPENDED_SEQUENCE_RE.sub(r"\1-weighted \2 ", clause)
    if "both" in clause.lower():
        clause = _BOTH_SEQUENCES_RE.sub("", clause)
    return clause


def _restricted_diffusion_written_out(clause: str) -> str:
    """"shows restricted diffusion" -> "shows high signal on DWI and low signal on ADC"; a denied
    one ("no restricted diffusion") stays one statement, as the denial of each reading would."""
    m = _restricted_diffusion_re().search(clause)
    if not m or _DENIED_BEFORE_RE.search(clause[:m.start()]) or _DIFFUSION_SEQUENCE_RE.search(clause):
        return clause  # denied, or its readings written out beside it already
    verb = "shows " if _RESTRICTS_RE.fullmatch(m.group(0)) else ""
    return f"{clause[:m.start()]}{verb}high signal on DWI and low signal on ADC{clause[m.end():]}"


@lru_cache(maxsize=1)
def _restricted_diffusion_re() -> re.Pattern[str]:
    """The wordings of restricted diffusion, from the MR family's rewrite that reads them as their
    two readings (one list of them, kept in equivalents.json)."""
    return word_regex([pattern for family in load("equivalents")["families"].values()
                       for pattern, written in family["rewrites"] if written == _DIFFUSION_READINGS])


def _sequence_count(run: list[re.Match[str]]) -> int:
    return sum(len(MR_SEQUENCE_RE.findall(unit.group(0))) for unit in run)


def _one_per_sequence(reading: str) -> list[str]:
    """"high signal on T2WI and DWI" -> "high signal on T2WI", "high signal on DWI"."""
    mentions = list(MR_SEQUENCE_RE.finditer(reading))
    if len(mentions) < 2:
        return [reading]
    first, last = mentions[0], mentions[-1]
    before, after = reading[:first.start()], reading[last.end():]
    return [f"{before}{m.group(0)}{after}" for m in mentions]


def _describes_only(canon: str) -> bool:
    """Whether a text (its ``canonical_text``) only says how a finding looks or was imaged ("Low
    signal on T1WI and high signal on T2WI, clear margins.", "no enhancement after contrast"):
    every word is one of the vocabulary's appearance words, and one at least says more than
    grammar does."""
    words = [w for w in TOKEN_RE.findall(canon) if not w.isdigit()]
    vocabulary = appearance_words()
    return bool(words) and all(w in vocabulary for w in words) \
        and any(w not in _APPEARANCE_GRAMMAR for w in words)


def _is_site(phrase: str) -> bool:
    return bool(_LEVEL_SITE_RE.match(phrase.strip())) or names_site(phrase)


def _site_names(phrase: str) -> set[str]:
    canon = canonical_text(phrase)
    return {site for site, p in site_mentions(canon) if p.search(canon)}


# "Right kidney size: 112 x 50 mm.", "Uterus dimensions 50 x 46 x 42 mm": a place and its size alone
_MEASURED_RE = re.compile(
    r"^(?P<what>[a-z][a-z /-]{1,40}?)(?P<keyword>\s+(?:size|dimensions?|measurements?|measures|measuring))?"
    r"\s*:?\s*(?:about\s+|approximately\s+|approx\.?\s+)?\d[\d.]*(?:\s*[x\u00d7]\s*\d[\d.]*)*\s*(?:mm|cm)\s*\.?$",
    re.IGNORECASE)
# a vessel's or a duct's caliber says whether it is dilated: a finding, kept
_CALIBER_RE = re.compile(r"\b(?:aort\w*|arter\w*|veins?|venous|ducts?|pa|ivc|svc|vessels?|ventricles?)\b", re.IGNORECASE)


def _measures_a_place(text: str) -> bool:
    """An organ measured, by side or as its size, and nothing said of it ("Right kidney size: 112 x
    50 mm."): a size tied to no finding, which RadSEM leaves out (read, it was an abnormal statement
    about nothing). A vessel's or a duct's caliber stays: it says whether it is dilated."""
    if not text.rstrip(". ").endswith(("mm", "cm")):
        return False  # the cheap test first: most sentences end otherwise
    m = _MEASURED_RE.match(text)
    return m is not None and bool(m["keyword"] or _SIDE_RE.search(m["what"])) \
        and not _CALIBER_RE.search(m["what"]) and names_site(m["what"]) and not names_finding(m["what"])


def _states_a_finding(sentence: str) -> bool:
    """Whether ``sentence`` states a finding, which a diagnosis said alone after it ("A cyst is
    considered.") may be of: it names one and is no statement that only denies or calls normal
    ("No abnormal signal is seen in the left hemisphere." states none: "A high-grade glioma is
    considered." after it is the whole study's conclusion)."""
    return _describes_a_finding(sentence) and not _only_denies_or_calls_normal(sentence)


# where a statement's parts are cut to tell what each denies ("the joint space is normal, and no
# effusion is seen")
_PART_SPLIT_RE = re.compile(r",\s*(?:and\s+)?|;\s*|\s+and\s+(?=(?:no|there)\b)")


def _only_denies_or_calls_normal(sentence: str) -> bool:
    """Every part of ``sentence`` that names an abnormality denies it, and some part denies
    something or calls its place normal ("The joint space is normal, and no effusion is seen",
    "The CBF of the cerebellum shows no obvious abnormality", "The midline structures are
    centered"). The words alone, without the reader's scopes (the text is read before them)."""
    lex, said = anatomy_lexicon(), False
    for part in _PART_SPLIT_RE.split(canonical_text(sentence)):
        denied = _DENIED_BEFORE_RE.search(part) is not None
        if lex.abnormal.search(part) and not denied:
            return False
        said = said or denied or lex.normal.search(part) is not None
    return said


def _describes_a_finding(sentence: str) -> bool:
    """Whether ``sentence`` names a finding or how one looks ("a round low-density shadow")."""
    return names_finding(sentence) or anatomy_lexicon().neutral.search(canonical_text(sentence)) is not None


def _is_normal(clause: str) -> bool:
    """A complete statement that calls something normal ("Left lung shows good transparency")."""
    canon = canonical_text(clause)
    lex = anatomy_lexicon()
    return bool(_VERB_RE.search(clause) or _FIRST_PREDICATE_RE.search(clause)) and bool(
        lex.normal.search(canon)) and not lex.abnormal.search(canon)


def _looks_abnormal_elsewhere(left: str, right: str) -> bool:
    """``left`` says how an organ's density, signal or echo is abnormal ("The liver shows
    diffusely decreased density"), a finding as much as one named by a finding word, and
    ``right`` names another structure before any reading of what it means (", with poorly
    defined vessels"; not ", with high signal on fat-suppressed sequences, in keeping with bone
    marrow edema": how the same place looks, and what that is; a fat-suppressed sequence names
    no fat)."""
    said = _FAT_SEQUENCE_RE.sub("", _INTERPRETATION_RE.split(right, maxsplit=1)[0])
    return bool(_VERB_RE.search(left) or _FIRST_PREDICATE_RE.search(left)) and bool(
        _ABNORMAL_APPEARANCE_RE.search(canonical_text(left))) and bool(
        _site_names(said) - _site_names(left))


def _may_name_finding(phrase: str) -> bool:
    """A finding (``anatomy.names_finding``), or a word that names one only in context ("opacity",
    "density", "signal"): what a margin or an effect on other structures can belong to."""
    canon = canonical_text(phrase)
    lex = anatomy_lexicon()
    return bool(lex.abnormal.search(canon) or lex.devices.search(canon) or lex.neutral.search(canon))


def _names_finding_or_signal(phrase: str) -> bool:
    """A finding or a device (``anatomy.names_finding``), or an abnormal signal, density or echo
    ("the punctate SWI hypointensity"), read from one canonical text."""
    canon = canonical_text(phrase)
    lex = anatomy_lexicon()
    return bool(lex.abnormal.search(canon) or lex.devices.search(canon) or _ABNORMAL_APPEARANCE_RE.search(canon))


def _split_items(text: str) -> list[str]:
    return [i.strip() for i in _ITEM_SPLIT_RE.split(text) if i and i.strip()]


def _short(items: list[str]) -> bool:
    return all(1 <= len(i.split()) <= _MAX_ITEM_WORDS for i in items)


def _expand_subject_list(clause: str) -> list[str]:
    """"The spleen, pancreas and kidneys are normal" -> one sentence per subject; without a verb,
    "Swelling and gas shadows at the left frontal area" -> one finding per sentence too."""
    verb = _VERB_RE.search(clause) or _TELEGRAPHIC_END_RE.search(clause)
    if not verb or verb.start() == 0:
        return [clause]
    subject, rest = clause[:verb.start()].strip(), clause[verb.start():]
    if _NEGATION_OR_PREPOSITION_RE.search(subject):
        return [clause]
    items = _side_goes_on(_parts_take_whole(_split_items(_LEADING_ARTICLE_RE.sub("", subject))))
    if len(items) < 2 or not _short(items):
        return [clause]
    places = _places_share_noun(items)
    if places:  # "Mediastinal and hilar lymph nodes are enlarged"
        return [f"{item} {rest}" for item in places]
    parts = _parts_share_noun(items) or _vessels_share_noun(items)
    if parts:  # "The medial and posterior malleoli are intact"
        return [f"{item} {rest}" for item in parts]
    quality = _QUALITY_OF_RE.match(items[0])
    if quality and not any(c.isdigit() for c in subject) \
            and all(" of " not in i and _is_site(i) for i in items[1:]):
        # "The bone density of the pelvis and the proximal femurs is decreased": the quality is
        # said of each site ("the bone density of the proximal femurs"), not the bare site; spinal
        # levels ("the signal of the L4/5 and L5/S1 discs") share their noun in the site list
        return [f"{items[0]} {rest}"] + [f"{quality.group('head')} {item} {rest}" for item in items[1:]]
    if _finding_of_a_site(items[0]) and all(" of " not in i and _is_site(i) and not names_finding(i)
                                            for i in items[1:]):
        # "Thickening of the left pleura and diaphragm is noted": one finding of a list of sites,
        # which the site list cuts (``_expand_site_list``), not a list of subjects ("the
        # diaphragm is noted" would say nothing of it)
        return [clause]
    # "Bony or soft tissue abnormalities are ...": an item that is a lone modifier shares the
    # last item's noun, so the subject is one phrase, not a list.
    if any(len(i.split()) == 1 and _MODIFIER_RE.search(i) for i in items[:-1]):
        return [clause]
    sites = all(_is_site(i) for i in items)
    findings = all(_may_name_finding(i) for i in items) and not any(
        _MODIFIER_RE.search(i.split()[-1]) for i in items[:-1])
    if not (sites or findings):
        return [clause]
    return [f"{item} {rest}" for item in items]


def _finding_of_a_site(item: str) -> bool:
    """"thickening of the left pleura": a finding named before the site it is of, which a
    subject list's other sites share ("Thickening of the left pleura and diaphragm is noted" says
    the diaphragm is thickened too, not that it is there)."""
    m = _FINDING_OF_RE.match(item)
    return m is not None and _may_name_finding(m.group("head")) and not _is_site(m.group("head"))


def _expand_negated_list(clause: str) -> list[str]:
    """"No effusion, mass or stones in the bile ducts" -> one negated sentence per item."""
    m = _NEG_LIST_RE.match(clause)
    if not m:
        return [clause]
    end = _DENIAL_LIST_END_RE.search(clause, m.start("items"))
    if end:  # "no pneumothorax, normal heart size", "no other aneurysm, the posterior circulation is
        # unremarkable": a statement of what is normal, or a clause of its own, ends the list
        return [*_expand_negated_list(clause[:end.start()]), clause[end.end():]]
    # "no effusion and no pneumothorax": the head already denies, so the items lose their own
    # "no" (else "There is no no pneumothorax").
    raw = _split_items(m.group("items"))
    if any(_SIDE_PAIR_SPLIT_RE.search(a) and re.match(r"(?:the\s+)?(?:left|right)\b", b, re.IGNORECASE)
           for a, b in itertools.pairwise(raw)):
        return [clause]  # the sides are written one per sentence by _expand_sides
    items = _share_noun([_LEADING_DENIAL_RE.sub("", i) for i in raw])
    if any(_VERB_RE.match(i) or _APPOSITIVE_RE.match(i) or _SAID_OF_THE_FINDING_RE.match(i) for i in items[1:]):
        # "no enhancement, and measures 5 mm" / "without enhancement, probably a simple cyst" /
        # "no enhancement, measuring 17 x 24 mm": the list ended, a predicate, what the finding
        # is, its size or where it lies, or a comparison goes on
        return [clause]
    places = (_places_share_noun(items) or _sites_take_finding(items)) if _short(items) else None
    if places:  # "no mediastinal or hilar lymphadenopathy", "no small bowel or colonic distension"
        items = places
    elif len(items) < 2 or not _short(items) or any(
            _MODIFIER_RE.search(i.split()[-1]) for i in items[:-1]):
        return [clause]
    tail = m.group("tail") or ""
    return [f"{m.group('head')}{item}{tail}" for item in items]


def _places_share_noun(items: list[str]) -> list[str] | None:
    """"mediastinal or hilar lymphadenopathy": one-word places before the last item take the
    words after its own place ("mediastinal lymphadenopathy", "hilar lymphadenopathy"); None when
    the items are not such a list ("bony or soft tissue abnormalities" names one finding)."""
    last = items[-1].split() if items else []
    if len(items) < 2 or len(last) < 2 or not _is_place_word(last[0]):
        return None
    if not all(len(i.split()) == 1 and _is_place_word(i) for i in items[:-1]):
        return None
    noun = " ".join(last[1:])
    return [f"{item} {noun}" for item in items[:-1]] + [items[-1]]


def _sites_take_finding(items: list[str]) -> list[str] | None:
    """"no small bowel or colonic distension", "no liver or spleen enlargement": items that name
    a site and no finding take the finding the last item names after its own place (else "No
    small bowel." denies nothing); None when the items are not such a list."""
    last = items[-1].split() if items else []
    if len(items) < 2 or len(last) < 2 or not all(_is_site(i) and not names_finding(i) for i in items[:-1]):
        return None
    for k in range(1, len(last)):
        place, finding = " ".join(last[:k]), " ".join(last[k:])
        if _is_site(place) and not names_finding(place) and names_finding(finding) and not _is_site(finding):
            return [f"{item} {finding}" for item in items[:-1]] + [items[-1]]
    return None


def _parts_share_noun(items: list[str]) -> list[str] | None:
    """"the right upper and middle lobes", "the medial and posterior malleoli": a list whose
    first item ends in a word that says which part of an organ takes the noun of the item that
    has one (``_adjectives_take_noun``), when every item then names a site; None otherwise
    ("the portal and splenic veins" stays one subject: two vessels' adjectives, not an organ's
    parts)."""
    if not _PART_WORD_RE.match(items[0].split()[-1]):
        return None
    named = _adjectives_take_noun(items)
    return named if named != items and all(_is_site(i) for i in named) else None


_LEADING_SIDES_RE = re.compile(r"(?:the\s+)?(?P<side>(?:left|right|bilateral|both)\s+)", re.IGNORECASE)
_VESSEL_NOUN_RE = re.compile(r"\b(?:arteries|veins|vessels)$", re.IGNORECASE)
_OWN_VESSEL_RE = re.compile(r"\b(?:artery|vein)$", re.IGNORECASE)  # an item that names its own vessel


def _vessels_share_noun(items: list[str]) -> list[str] | None:
    """"The common femoral, femoral and great saphenous veins are patent": named vessels that share
    the last item's noun, one statement each, as a report written vessel by vessel says them; None
    unless each then names a vessel of its own (not only "a vessel")."""
    noun = _VESSEL_NOUN_RE.search(items[-1])
    if not noun or any(_VESSEL_NOUN_RE.search(i) for i in items[:-1]):
        return None
    # the items that share it follow any that name their own vessel ("the left middle cerebral
    # artery and the bilateral anterior and posterior cerebral arteries")
    start = len(items) - 1
    while start > 0 and not _OWN_VESSEL_RE.search(items[start - 1]):
        start -= 1
    if start == len(items) - 1:
        return None
    own, run, last = items[:start], items[start:], items[-1].split()
    # the noun alone, or the last item's words after its own adjective ("the internal and external
    # carotid arteries": "internal carotid arteries")
    for shared in dict.fromkeys((noun.group(0), " ".join(last[1:]))):
        named = [f"{item} {shared}" for item in run[:-1]] + [run[-1]]
        if all(_site_names(item) - {"vessel"} for item in named):
            side = _LEADING_SIDES_RE.match(named[0])  # "the bilateral internal and external ..."
            return [*own, named[0], *(i if not side or _says_a_side(i) else f"{side['side']}{i}"
                                      for i in named[1:])]
    return None


def _is_place_word(word: str) -> bool:
    """An adjective that names a place ("mediastinal", "hilar", "pleural"; not "head"), or a
    spinal level ("the L3-4 and L4-5 discs")."""
    if _LEVEL_RE.match(word):
        return True
    return bool(_ADJECTIVE_RE.search(word)) and _is_site(word) and not names_finding(word)


def _share_noun(items: list[str]) -> list[str]:
    """"left or right pleural effusion", "left- or right-sided effusion": a bare side takes the
    words of the last item after its side."""
    last = items[-1].split() if items else []
    side = _BARE_SIDE_RE.fullmatch(last[0]) if len(items) >= 2 and len(last) >= 2 else None
    if not side:
        return items
    suffix = side.group(2) or ""
    noun = " ".join(last[1:])
    out = []
    for item in items:
        bare = _BARE_SIDE_RE.fullmatch(item)
        out.append(f"{bare.group(1)}{suffix} {noun}" if bare else item)
    return out


def _expand_kinds(clause: str) -> list[str]:
    """"Scattered patchy and linear opacities" -> "Scattered patchy opacities", "Scattered
    linear opacities": a list of kinds (equivalents.json ``kinds``) before one plural noun names
    one finding per kind. "A solid and cystic mass" (one mixed lesion, a singular noun) stays."""
    lowered = clause.lower()
    if " and " not in lowered and " or " not in lowered:
        return [clause]  # no list (most clauses: checked before the pattern)
    m = _kinds_re().search(clause)
    if not m or not _plural(m.group("noun")):
        return [clause]
    head, tail = clause[:m.start("kinds")], clause[m.end("kinds"):]
    return [f"{head}{kind}{tail}" for kind in _split_items(m.group("kinds"))]


@lru_cache(maxsize=1)
def _kinds_re() -> re.Pattern[str]:
    kind = f"(?:{'|'.join(sorted(map(re.escape, kind_words()), key=len, reverse=True))})"
    # the kinds, then at most two shared words ("high-density", "soft-tissue"), then the noun
    return re.compile(
        rf"\b(?P<kinds>{kind}(?:\s*,\s*{kind})*\s*,?\s+(?:and|or)\s+{kind})"
        rf"(?:\s+(?!(?:is|are|was|were|in|on|at|of|with|and|or)\b)[\w-]+){{0,2}}?\s+(?P<noun>[a-z]+)(?![\w-])",
        re.IGNORECASE)


def _plural(noun: str) -> bool:
    """A plural noun: "opacities", "foci"; not "mass", "sinus", "fibrosis", "pancreas"."""
    word = noun.lower()
    return word in _LATIN_PLURALS or (word.endswith("s") and not word.endswith(("ss", "us", "is"))
                                      and word not in _SINGULAR_IN_S)


def _expand_site_list(clause: str) -> list[str]:
    """"... in the hila or the mediastinum" -> one sentence per site. The first preposition whose
    words read as a list of sites gives the list; "at C3/4, C4/5, C5/6" lists levels with commas
    only."""
    for start in _LOCATIVE_RE.finditer(clause):
        if MR_SEQUENCE_RE.match(clause, start.end()):
            continue  # "high signal on FLAIR in the left frontal lobe and ...": a sequence, not a place
        listed = _site_list(clause, start.end())
        if listed:
            items, end = listed
            head, tail = clause[:start.end()], clause[end:]
            return [f"{clause[:start.start()]}{item}{tail}" if _OWN_PREPOSITION_RE.match(item)
                    else f"{head}{'' if _LEVEL_SITE_RE.match(item) else 'the '}{item}{tail}"
                    for item in items]
    m = _LEVEL_LIST_RE.search(clause)
    if m:
        head, tail = clause[:m.start("items")], clause[m.end("items"):]
        return [f"{head}{item}{tail}" for item in _split_items(m.group("items"))]
    return [clause]


def _site_list(clause: str, start: int) -> tuple[list[str], int] | None:
    """The sites listed from ``start`` and where the list ends, or None when fewer than two are.

    The items are the words between commas, "and", "or" and "as well as", up to where a
    statement goes on (a verb, "with", "on", ...). The list is the longest run of items that
    read as sites and ends at one joined by "and", "or" or "as well as": what follows only a
    comma ("At L1-L2 and L5-S1, the discs ...") is the rest of the sentence."""
    stop = _LOCATIVE_END_RE.search(clause, start)
    end = stop.start() if stop else len(clause)
    spans: list[tuple[int, int, bool]] = []  # (start, end, joined by "and" / "or" / "as well as")
    at, joined = start, False
    for joiner in _SITE_JOINER_RE.finditer(clause, start, end):
        spans.append((at, joiner.start(), joined))
        at, joined = joiner.end(), bool(_AND_OR_RE.search(joiner.group(0)))
    spans.append((at, end, joined))
    if not any(j for _, _, j in spans):
        return None
    texts = [_SITE_ITEM_LEAD_RE.sub("", clause[s:e].strip()) for s, e, _ in spans]
    items = _adjectives_take_noun(_parts_take_whole(texts))
    items = _places_share_noun(items) or items  # "the L3/4 and L4/5 discs"
    last = None
    for i, item in enumerate(items):
        if not item or len(texts[i].split()) > _MAX_SITE_WORDS or not _is_site(item) \
                or _SAYS_WHERE_RE.match(item) or _finding_of_site(item) or _a_finding_not_a_place(item):
            break
        if spans[i][2]:
            last = i
    if last is None or last < 1:
        return None
    return _side_goes_on(items[:last + 1]), spans[last][1]


_LEADING_SIDE_RE = re.compile(r"^(?:the\s+)?(left|right)\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _paired_structures() -> tuple[frozenset[str], frozenset[str]]:
    """The paired structures as written once per side ("ureter", "lower lobe") and the sites they
    name ("kidney", "lung"): a side said of one goes on to another part of the same."""
    written = frozenset(anatomy_lexicon().paired_singular.values())
    return written, frozenset(site for w in written for site in _site_names(w))


# The places of one cerebral hemisphere: a side said of one goes on to the next ("the left basal
# ganglia and corona radiata" is one hemisphere's), as it does not to a midline one (the corpus
# callosum, the brainstem)
_HEMISPHERE_SITES = frozenset(("basal ganglia", "thalamus", "frontal lobe", "parietal lobe", "temporal lobe",
                               "occipital lobe", "periventricular", "lateral ventricle"))


def _side_goes_on(items: list[str]) -> list[str]:
    """"the left renal pelvis and calyces", "the right kidney and ureter": the side of the first
    item goes on to a later one that names none and is a part of the same organ or a paired
    structure (the calyces, the ureter), or a place of the same cerebral hemisphere ("the left
    basal ganglia and corona radiata"); "the left kidney and the spleen" keeps a spleen with no
    side. Without it "calyces" had no side and paired with either kidney's."""
    side = _LEADING_SIDE_RE.match(items[0]) if items else None
    if side is None:
        return items
    paired, paired_sites = _paired_structures()
    named_first = _site_names(items[0])
    first = named_first & paired_sites  # a part of a paired organ: the kidney's calyces
    # said once, before the first: a writer who repeats the side ("the left temporal lobe, left
    # frontal lobe and thalamus") leaves an item without one unsided
    hemisphere = bool(named_first) and named_first <= _HEMISPHERE_SITES \
        and not any(_says_a_side(item) for item in items[1:])
    out = [items[0]]
    for item in items[1:]:
        sites = set() if _says_a_side(item) else _site_names(item)
        same_organ = bool(sites) and (sites <= first or (hemisphere and sites <= _HEMISPHERE_SITES))
        bare = _LEADING_ARTICLE_RE.sub("", item)
        if same_organ or (sites and bare.lower().rstrip("s") in paired):
            item = f"{side.group(1).lower()} {bare}"
        out.append(item)
    return out


def _says_a_side(item: str) -> bool:
    """Whether ``item`` names a side or both ("left", "bilateral", "both sides")."""
    return bool(_SIDE_RE.search(item) or anatomy_lexicon().bilateral.search(item.lower()))


def _a_finding_not_a_place(item: str) -> bool:
    """"a small left hip joint effusion": a finding joined on after the places ("bone marrow edema
    in the left femoral neck and a small left hip joint effusion" is two findings, not edema in
    the effusion); a place is not written with an indefinite article or an amount."""
    return bool(_AMOUNT_LEAD_RE.match(item)) and names_finding(item)


def _finding_of_site(item: str) -> bool:
    """"dilatation of the left ureter": a finding at a site, which a list of sites ends before
    ("hydronephrosis of the left kidney and dilatation of the left ureter" is two findings)."""
    m = _PART_OF_RE.match(item)
    return m is not None and names_finding(m.group("part"))


def _parts_take_whole(items: list[str]) -> list[str]:
    """"the genu, body, and splenium of the corpus callosum": the one-word parts listed before
    "<part> of <whole>" are parts of that whole too ("genu of the corpus callosum"); a one-word
    part after "<whole's adjective> <part>" is a part of that whole ("the left femoral head and
    neck": the left femoral neck, not the neck)."""
    out = list(items)
    for i, item in enumerate(items):
        before = items[i - 1].split() if i else []
        if item.lower() in PART_NOUNS and len(before) > 1 and before[-1].lower() in PART_NOUNS:
            out[i] = " ".join([*before[:-1], item])
            continue
        m = _PART_OF_RE.match(item)
        if not m or m.group("part").lower() not in PART_NOUNS:
            continue
        k = i - 1
        while k >= 0 and items[k].lower() in PART_NOUNS:
            out[k] = f"{items[k]} of the {m.group('whole')}"
            k -= 1
    return out


def _adjectives_take_noun(items: list[str]) -> list[str]:
    """"the left frontal, parietal and temporal lobes": items that end in an adjective take the
    noun of the next item that has one ("left frontal lobes", not the frontal bone), and the words
    before the first adjective ("left", "subcortical regions of the") go with each bare one:
    "left parietal lobes", "left temporal lobes"."""
    out = list(items)
    i = 0
    while i < len(items):
        if not items[i] or not _ADJECTIVE_RE.search(items[i].split()[-1]):
            i += 1
            continue
        j = i  # the run of items that end in an adjective, and the item after it that has the noun
        while j < len(items) and items[j] and _ADJECTIVE_RE.search(items[j].split()[-1]):
            j += 1
        words = items[j].split() if j < len(items) else []
        adjective = next((k for k, w in enumerate(words[:-1]) if _ADJECTIVE_RE.search(w)), None)
        if adjective is None:
            i = j + 1
            continue
        noun = " ".join(words[adjective + 1:])
        lead = " ".join(items[i].split()[:-1])
        for k in range(i, j):
            bare = len(items[k].split()) == 1 and lead
            out[k] = f"{lead} {items[k]} {noun}" if bare and k > i else f"{items[k]} {noun}"
        if lead and adjective == 0:
            out[j] = f"{lead} {items[j]}"
        i = j + 1
    return out


# What a finding on both sides is on each ("Bilateral effusions, small on the left and moderate on
# the right", "..., decreased on the left, unchanged on the right"): two short parts, one per side
_PER_SIDE_RE = re.compile(
    r",\s*(?P<first>[a-z][a-z0-9.\s-]{0,40}?)\s+(?:on|in)\s+the\s+(?P<first_side>left|right)(?:\s+side)?"
    r"\s*(?:,\s*(?:and\s+|but\s+|while\s+)?|\s+(?:and|but|while)\s+)"
    r"(?P<second>[a-z][a-z0-9.\s-]{0,40}?)\s+(?:on|in)\s+the\s+(?P<second_side>left|right)(?:\s+side)?(?=\s*[.;]?\s*$)",
    re.IGNORECASE)
_EACH_SIDE = "\x01"  # where the per-side parts stood: each side's sentence says its own


# Each side with its own degree before one noun: "Small left and moderate right pleural effusions",
# "mild right and severe left hip osteoarthritis" (a word or two before each side)
_SIDE_DEGREES_RE = re.compile(
    r"^(?P<first>(?:(?!(?:the|a|an|both|no|and|or)\s)[a-z-]+\s+){1,2}?)(?P<first_side>left|right)\s+and\s+"
    r"(?P<second>(?:(?!(?:the|a|an|both|no|and|or)\s)[a-z-]+\s+){1,2}?)"
    r"(?P<second_side>left|right)\s+(?P<noun>[a-z].*)$", re.IGNORECASE)


_DEGREE_WORDS = (r"(?:small|mild|moderate|large|severe|marked|minimal|trace|tiny|slight|extensive|massive"
                 r"|mild[- ]to[- ]moderate|moderate[- ]to[- ]severe)")
# the degree of the other side after the finding: "Mild hydronephrosis on the left and moderate on the right"
_DEGREE_THEN_OTHER_SIDE_RE = re.compile(
    rf"^(?P<first>{_DEGREE_WORDS}\s+)(?P<noun>[a-z][a-z\s-]*?)\s+(?:on|in)\s+the\s+(?P<first_side>left|right)(?:\s+side)?"
    rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?P<second>{_DEGREE_WORDS})\s+(?:on|in)\s+the\s+(?P<second_side>left|right)"
    r"(?:\s+side)?\s*[.;]?$", re.IGNORECASE)


def _sides_with_degrees(clause: str) -> list[str] | None:
    """"Small left and moderate right pleural effusions" -> "Small left pleural effusions." and
    "Moderate right pleural effusions.", as a report saying each side apart does; None where the
    clause is not so written (or names one side twice)."""
    if " and " not in clause and "," not in clause:
        return None
    m = _SIDE_DEGREES_RE.match(clause.strip()) or _DEGREE_THEN_OTHER_SIDE_RE.match(clause.strip())
    if not m or m["first_side"].lower() == m["second_side"].lower() or _VERB_RE.search(m["first"] + m["second"]):
        return None
    noun = m["noun"].rstrip(" .;")
    return [f"{degree[:1].upper()}{degree[1:].rstrip()} {side.lower()} {noun}."
            for degree, side in ((m["first"], m["first_side"]), (m["second"], m["second_side"]))]


def _per_side(clause: str) -> tuple[str, dict[str, str]]:
    """The clause without its per-side parts (``_PER_SIDE_RE``), and each side's part; no parts
    where the clause has none, or names one side twice."""
    m = _PER_SIDE_RE.search(clause) if " the left" in clause and " the right" in clause else None
    if not m or m["first_side"].lower() == m["second_side"].lower():
        return clause, {}
    return (f"{clause[:m.start()]}{_EACH_SIDE}{clause[m.end():]}",
            {m["first_side"].lower(): m["first"], m["second_side"].lower(): m["second"]})


def _expand_sides(clause: str) -> list[str]:
    """Both sides stated, or a side-less plural paired organ -> a left and a right sentence."""
    lex = anatomy_lexicon()
    if (degrees := _sides_with_degrees(clause)) is not None:
        return degrees
    clause, each_side = _per_side(clause)
    bilateral = lex.bilateral.search(clause) or each_side
    plural = lex.paired_plural.search(clause)
    # "pleural effusions, left greater than right": the comparison names both sides
    compared = _PREDOMINANT_RE.search(clause) if ">" in clause or " than " in clause else None
    both_compared = bool(compared and compared.group("more")) and not bilateral and not plural
    if not bilateral and not both_compared and (not plural or _SIDE_RE.search(clause)):
        return [clause]
    clause, dominant = _predominance(clause)
    out = []
    for side in ("left", "right"):
        text = _write_side(clause, side)
        if each_side:  # "Left pleural effusion, decreased." / "Right pleural effusion, unchanged."
            text = text.replace(_EACH_SIDE, f", {each_side[side]}")
            if not lex.bilateral.search(clause) and not _SIDE_RE.search(text.split(",")[0]):
                text = f"{side.capitalize()} {text[:1].lower()}{text[1:]}"  # "Effusions, ..." names no side
        if dominant:  # "Right pleural effusion, larger." / "Left pleural effusion, smaller."
            where = f" on the {side}" if both_compared else ""
            more, less = ("more so", "less so") if _LOSS_RE.search(clause) else ("larger", "smaller")
            text = text.replace(_DOMINANCE, f"{where}, {more if side == dominant else less}")
        if text not in out:
            out.append(text)
    return out


def _predominance(clause: str) -> tuple[str, str | None]:
    """"Bilateral effusions, predominantly on the right" -> the clause without the phrase, and
    the side that has more ("right"); None when the clause names no such side."""
    m = _PREDOMINANT_RE.search(clause)
    if not m:
        return clause, None
    side = (m.group("side") or m.group("more")).lower()
    side = {"l": "left", "r": "right"}.get(side, side)
    return f"{clause[:m.start()].rstrip(' ,')}{_DOMINANCE}{clause[m.end():]}", side


def _write_side(clause: str, side: str) -> str:
    lex = anatomy_lexicon()

    def plural_to_side(m: re.Match[str]) -> str:
        return f"{side} {lex.paired_singular[m.group(0).lower()]}"

    def bilateral_to_side(m: re.Match[str]) -> str:
        return _SIDE_PHRASES.get(m.group(0).lower(), "{side}").format(side=side)

    def plural_to_singular(m: re.Match[str]) -> str:
        return lex.paired_singular[m.group(0).lower()]

    if lex.paired_plural.search(clause):  # "the lateral ventricles on both sides": the plural
        clause = _BOTH_SIDES_RE.sub("", clause)  # gives the side, the phrase goes
    # "both lower lungs": the bilateral word gives the side, the plural only becomes singular
    # ("left lower lung", not "left lower left lung")
    sided = bool(lex.bilateral.search(clause))
    text = lex.bilateral.sub(bilateral_to_side, clause)
    text = _DOUBLE_SIDE_RE.sub(r"\1", text)
    text = lex.paired_plural.sub(plural_to_singular if sided else plural_to_side, text)
    return _REPEATED_SIDE_RE[side].sub(side, text)


def _has_content(text: str, sentence: str) -> bool:
    """Two words or more, or a sentence written as one word that names a finding:
    "Cardiomegaly." and "Pneumothorax." are whole statements; "Unremarkable.", a stray "Left."
    or the "increased" left of "Compared with the prior study, increased." say nothing alone."""
    words = _CONTENT_WORD_RE.findall(text)
    return len(words) >= 2 or (len(words) == 1 and _CONTENT_WORD_RE.findall(sentence) == words
                               and (names_finding(words[0]) or bool(_GRADED_ALONE_RE.match(text))))


# A named grading scale and its grade, alone ("ASPECTS ~5.", "Fazekas 2.", "Bosniak IIF."): one
# word and a number, which says what the scale found (it had been dropped as saying nothing)
_GRADED_ALONE_RE = re.compile(
    r"\s*(?:aspects|bosniak|knosp|fazekas|deauville|kellgren[- ]lawrence|schatzker|garden|gleason)"
    r"\s*(?:score|grade|class|category|type)?\s*[:=~]?\s*(?:of\s+|about\s+|approx\.?\s+|approximately\s+)?"
    r"(?:\d|[ivx]+\b)", re.IGNORECASE)


# Words before a verb that are no singular noun: "there", a relative pronoun, or a pronoun or
# quantifier that stands for several ("Both are hypointense", "They are stable", "Some are calcified")
_NOT_A_SINGULAR_SUBJECT = frozenset({"there", "which", "that", "who", "they", "these", "those", "both",
                                     "all", "many", "several", "some", "others", "few", "most"})


def _agree(text: str) -> str:
    """Verb agreement after a subject was split or made one-sided: "Heart size are normal"
    and "Left lung are clear" read as "... is ..."."""
    m = _PLURAL_VERB_RE.match(text)
    if not m:
        return text
    noun = m.group(2).lower()
    if _plural(noun):
        return text  # a plural subject keeps "are"
    if noun in _NOT_A_SINGULAR_SUBJECT or noun.endswith(("ing", "ly")):
        return text
    verb = _SINGULAR_VERB[m.group(3).lower()]
    return text[:m.start(3)] + verb + text[m.end(3):]


def _tidy(text: str) -> str:
    text = _LEADING_CONNECTIVE_RE.sub("", text.strip(" ,;"))
    text = _agree(_SPACES_RE.sub(" ", text).strip(" ,;."))
    return (text[:1].upper() + text[1:] + ".") if text else text
