"""One Compare run kept in the store, and the link that reopens it (``?compare=<run id>``).

Every finished comparison is stored as a one-pair run (its texts, each metric's whole result
with its signature) under an unguessable id (``compare-`` and 128 random bits). Opening the link
draws the texts and panels from the stored results; no model runs.

Who may open a link: locally, anyone who can reach the app (one user). On a public server only
the browser that made the comparison: its owner is a random visitor key kept in that browser's
local storage (``gr.BrowserState``), hashed before it is stored. A link opened in another browser
gets the same "not found" answer as an id that was never stored, so a link tells a stranger
nothing (owner-only is the safe default for reports that may hold patient text; sharing one
comparison publicly is what the HTML report download is for).
"""
from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from radscope.engine.io.reports import ReportPair
from radscope.engine.runs.store import Store
from radscope.ui.public import masked, owner_of

QUERY = "compare"  # the page's query parameter
PREFIX = "compare-"
PAIR_ID = "pair"
INPUT_LABEL = "Compare tab (one pair)"
RUN_ID = re.compile(r"compare-[0-9a-f]{32}")
NOT_FOUND = ("No stored comparison {run_id} in this app's store: the link may be mistyped, or it "
             "was made with another store, or this one has been cleared.")
PUBLIC_NOT_FOUND = ("No stored comparison {run_id} made in this browser: on this public server a "
                    "comparison opens only in the browser that made it. The link may be mistyped, "
                    "come from someone else, or the server's store has been cleared.")


class NotOpenable(LookupError):
    """The link names no stored comparison this visitor may open (the message says so)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class StoredComparison:
    run_id: str
    created: str
    pair: ReportPair
    results: dict[str, dict[str, Any]]


def new_visitor_key() -> str:
    """A public visitor's secret key (kept in their browser; only its hash is stored)."""
    return secrets.token_hex(16)


def owner_for(public: bool, visitor_key: str | None) -> str | None:
    """The owner a comparison is stored under and checked against: None locally (no check)."""
    if not public:
        return None
    return owner_of(visitor_key) if visitor_key else None


def save_comparison(store: Store, pair: ReportPair, results: Mapping[str, Mapping[str, Any]],
                    options: Mapping[str, Any], owner: str | None) -> str:
    """Store one comparison (secret options masked); returns its run id. In public mode the
    run is claimed for ``owner`` before anything is written."""
    run_id = PREFIX + uuid.uuid4().hex
    if owner is not None and not store.claim_run(run_id, owner):  # a fresh random id: never taken
        raise NotOpenable(f"run id {run_id} is already taken")
    store.start_run(run_id, INPUT_LABEL, list(results), masked(options), pair_ids=[PAIR_ID])
    store.put_texts(run_id, [{"id": PAIR_ID, "reference": pair.reference, "candidate": pair.candidate,
                              "modality": pair.modality, "area": pair.area}])
    store.put_results(run_id, [(PAIR_ID, name, dict(result), pair.content_hash())
                               for name, result in results.items()])
    store.finish_run(run_id)
    return run_id


def load_comparison(store: Store, run_id: str, owner: str | None, public: bool) -> StoredComparison:
    """The stored comparison ``run_id``, or NotOpenable (the same answer whether it does not
    exist or belongs to someone else)."""
    run_id = (run_id or "").strip()
    missing = NotOpenable((PUBLIC_NOT_FOUND if public else NOT_FOUND).format(
        run_id=run_id[:60] or "(empty id)"))
    if not RUN_ID.fullmatch(run_id):
        raise missing
    info = store.get_run(run_id)
    if info is None:
        raise missing
    if public and (owner is None or not store.claim_run(run_id, owner)):  # exists: claim only reads
        raise missing
    texts = store.texts(run_id).get(PAIR_ID)
    if texts is None:
        raise missing
    stored = {row.metric: row.payload for row in store.results(run_id) if row.pair_id == PAIR_ID}
    order = [m for m in info.metrics if m in stored] + [m for m in stored if m not in info.metrics]
    pair = ReportPair(id=PAIR_ID, reference=texts["reference"], candidate=texts["candidate"],
                      modality=texts["modality"], area=texts["area"])
    return StoredComparison(run_id, info.created_at, pair, {m: stored[m] for m in order})


def link_for(root_url: str, run_id: str) -> str:
    """The address that reopens ``run_id`` in the app served at ``root_url``."""
    return f"{root_url.rstrip('/')}/?{urlencode({QUERY: run_id})}"
