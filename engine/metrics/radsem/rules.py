"""RadSEM stages 1 and 2 without a language model (stage 3, ``score.py``, is shared).

Stage 1 (``radscope.engine.reader.text.atoms``) rewrites each Findings section into atomic sentences with
patterns; stage 2 (``radscope.engine.reader.attributes.place`` + ``rules_match``) reads each sentence's polarity,
normality, sites, side and direction words, and pairs Ref with Gen sentences that are
compatible and similar. Both reports are read through the clinical reader
(``radscope.engine.reader.read_report``), which holds these sentences and their features and reads each
report once for all the metrics of a run. Similarity is token overlap by default; the bundled
sentence encoder (``minilm-embedder``) or the mean of both can be chosen, and the signature
says which.

Why ``demo_grade`` is False: the rules are deterministic clinical language rules measured on
real data (SSREE monotonicity and synonym / antonym triplets, ``bench.quality.rules``); they are
a genuine if narrower reader, unlike the 270M demonstration judge. Their known gaps are in
engine/data/lexicons/README.md.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.rules_match import match
from radscope.engine.options.radsem_matching import DEFAULT_SIMILARITY, SIMILARITY_OPTION
from radscope.engine.reader.attributes.place import SentenceFeatures
from radscope.engine.reader.findings import read_report
from radscope.engine.reader.pair.compatibility import (
    LEXICAL_SETTINGS,
    MatchSettings,
    SimilarityFn,
    lexical_similarity,
)
from radscope.engine.reader.versions import RADSEM_LEXICONS, RADSEM_RULES_VERSION, READER_VERSION
from radscope.engine.reader.vocabulary.loader import lexicon_hash

log = logging.getLogger(__name__)
ENCODER_ID = "minilm-embedder"
# Thresholds per similarity scale: cosine similarities of the encoder run higher than token
# overlap for the same pair of sentences, so each backend has its own (chosen on SSREE dev).
SETTINGS = {"lexical": LEXICAL_SETTINGS,
            "encoder": MatchSettings(pair_threshold=0.6, extra_threshold=0.75, siteless_threshold=0.7),
            "hybrid": MatchSettings(pair_threshold=0.45, extra_threshold=0.55, siteless_threshold=0.55)}


class EncoderSimilarity:
    """Cosine similarity from a sentence encoder, caching embeddings per sentence text.

    References are scored against many candidates (SSREE: five), so their sentences are
    embedded once.
    """

    def __init__(self, embedder: Any, cache_size: int = 20000) -> None:
        self.embedder = embedder
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            found = {}
            for text in texts:
                if text in self._cache:
                    self._cache.move_to_end(text)
                    found[text] = self._cache[text]
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            vectors = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            found.update(zip(missing, vectors, strict=True))
            with self._lock:
                self._cache.update(zip(missing, vectors, strict=True))
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        return np.stack([found[t] for t in texts])

    def __call__(self, ref: Sequence[SentenceFeatures],
                 gen: Sequence[SentenceFeatures]) -> np.ndarray:
        return self.cosine(ref, gen)

    def cosine(self, ref: Sequence[SentenceFeatures],
               gen: Sequence[SentenceFeatures]) -> np.ndarray:
        a, b = self._vectors([f.text for f in ref]), self._vectors([f.text for f in gen])
        a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
        b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
        return a @ b.T


class HybridSimilarity(EncoderSimilarity):
    """Mean of the encoder's cosine and the token Dice: meaning and exact wording both count."""

    def __call__(self, ref: Sequence[SentenceFeatures],
                 gen: Sequence[SentenceFeatures]) -> np.ndarray:
        return 0.5 * (self.cosine(ref, gen) + lexical_similarity(ref, gen))


class RadsemRulesExtractor(PairwiseExtractor[RadsemExtraction]):
    """The deterministic RadSEM extractor (``kind = "rules"``)."""

    kind: ExtractorKind = "rules"

    def __init__(self, similarity: SimilarityFn | None = None, backend: str = "lexical",
                 settings: MatchSettings | None = None, encoder_info: dict[str, Any] | None = None):
        self.similarity = similarity or lexical_similarity
        self.backend = backend
        self.settings = settings or SETTINGS[backend]
        self.encoder_info = encoder_info or {}
        # Pure Python unless a sentence encoder is used: may then run in worker processes.
        self.cpu_bound = backend == "lexical"

    def model(self) -> ModelInfo:
        model_id = RADSEM_RULES_VERSION + (f"+{ENCODER_ID}" if self.backend != "lexical" else "")
        return ModelInfo(id=model_id, source="rules: engine/data/lexicons", demo_grade=False,
                         device="cpu", detail={"lexicon": lexicon_hash(*RADSEM_LEXICONS),
                                               "similarity": self.backend, **self.encoder_info})

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", "rules": RADSEM_RULES_VERSION, "reader_version": READER_VERSION,
                "lexicon": lexicon_hash(*RADSEM_LEXICONS),
                "sim": {"encoder": ENCODER_ID, "hybrid": f"{ENCODER_ID}+dice"}.get(
                    self.backend, "lexical-dice"),
                "encoder_sha": self.encoder_info.get("sha256", "none")[:12],
                "thresholds": f"{self.settings.pair_threshold:g}/{self.settings.extra_threshold:g}"}

    def extract_pair(self, pair: ReportPair) -> Extracted[RadsemExtraction]:
        return Extracted(self.read_pair(pair))

    def read_pair(self, pair: ReportPair) -> RadsemExtraction:
        """Both reports' atomic sentences and the tags that pair them."""
        # The atomic statements come from the clinical reader, which reads (and caches) each
        # report once for every metric of a run; they are the RadSEM atomiser's sentences.
        reference, candidate = read_report(pair.reference), read_report(pair.candidate)
        ref = [f.features for f in reference.findings]
        gen = [f.features for f in candidate.findings]
        tags = match(ref, gen, self.similarity, self.settings)
        notes = [f"Ref {n}" for n in reference.notes] + [f"Gen {n}" for n in candidate.notes]
        return RadsemExtraction(ref_sentences=[f.text for f in ref],
                                gen_sentences=[f.text for f in gen], tags=tags, notes=notes)


def _load_encoder(ctx: Any = None) -> tuple[Any, dict[str, Any]]:
    """The bundled sentence encoder (shared through ``ctx`` when given).

    Raises RuntimeError naming what failed (a missing package, an absent or broken model
    artifact), after logging it: the caller asked for the encoder, so no silent fallback.
    """
    try:
        from radscope.engine.runtimes.encoder_session import SentenceEmbedder, load_encoder
        from radscope.models.artifacts import resolve_artifact
        from radscope.models.resolve import ModelNotAvailable
    except ImportError as exc:
        return _encoder_failed("its runtime cannot be imported", exc)
    try:
        artifact = resolve_artifact(ENCODER_ID, "embedder")
    except (ModelNotAvailable, KeyError, FileNotFoundError, ValueError) as exc:
        return _encoder_failed("its model artifact cannot be resolved", exc)
    try:
        embedder = load_encoder(ENCODER_ID, "embedder", ctx)
    except KeyError:  # the encoder options are not registered in this run: plain settings
        embedder = SentenceEmbedder(artifact)
    info = {"encoder": ENCODER_ID, "encoder_source": artifact.source,
            "sha256": str(artifact.manifest.checksum or "")}
    return embedder, info


def _encoder_failed(what: str, exc: BaseException) -> NoReturn:
    message = (f"the sentence encoder {ENCODER_ID!r} for RadSEM's encoder / hybrid similarity "
               f"is not usable: {what} ({type(exc).__name__}: {exc})")
    log.warning(message)
    raise RuntimeError(message) from exc


def build_extractor(ctx: Any = None, similarity: str | None = None) -> RadsemRulesExtractor:
    """The ``rules`` entry of the ``radsem`` extractor table (``radsem.metric.EXTRACTORS``).

    ``similarity``: "lexical" (token Dice, the default), "encoder" (the bundled MiniLM cosine,
    its session shared through ``ctx``) or "hybrid" (their mean).
    """
    if similarity is None and ctx is not None and hasattr(ctx, "option"):
        similarity = ctx.option(SIMILARITY_OPTION)
    similarity = similarity or DEFAULT_SIMILARITY
    if similarity in ("encoder", "hybrid"):
        embedder, info = _load_encoder(ctx)
        cls = EncoderSimilarity if similarity == "encoder" else HybridSimilarity
        return RadsemRulesExtractor(cls(embedder), similarity, encoder_info=info)
    return RadsemRulesExtractor()
