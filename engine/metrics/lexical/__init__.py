"""The lexical baselines, BLEU and ROUGE-L (``metric``), and BLEU's per-pair statistics and corpus
figure (``stats``)."""
from radscope.engine.metrics.lexical.metric import METRICS

__all__ = ["METRICS"]
