"""The kinds of clinical error the reader counts per pair, in words (no imports: the metric
cards name the kinds each metric can see, also where the reader's dependencies are absent)."""
from __future__ import annotations

ERROR_KINDS: dict[str, str] = {
    "side": "a finding on the other side (left vs right)",
    "site": "a finding at another site or level",
    "missed": "a reference finding the candidate leaves out or denies",
    "invented": "a candidate finding the reference does not make",
    "severity": "another severity of the same finding (mild, moderate, severe; small, large)",
    "size": "another size of the same finding, past the tolerance (1.5 mm or 10 %)",
    "change": "another change over time of the same finding (new, increased, decreased, "
              "resolved, unchanged)",
    "certainty": "a finding stated as certain in one report and hedged in the other "
                 "(not clinically significant)",
    "comparison": "a change against a prior study made or dropped",
    # Where, not what: an error the impressions alone show (a normal impression for an abnormal
    # study, its side swapped) while the findings agree. Seen only by a metric that reads the
    # impression and compares it apart from the findings (presence labels over the whole
    # report still find the finding in the findings).
    "impression": "an error in the impression alone, where the findings agree",
}
ALL_ERROR_KINDS = frozenset(ERROR_KINDS)
