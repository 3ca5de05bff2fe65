"""A short soak of the reward server (the 10-minute one is ``bench reward-soak``): 30 s of good,
hostile, slow and abandoned requests at once on 127.0.0.1. Every good request is answered, no
hostile one gets a 5xx, and once the load stops the server holds no connection and no more
descriptors than it started with."""
import pytest

from bench.speed.reward_soak import soak


@pytest.mark.slow
def test_a_short_soak_answers_every_good_request_and_leaves_nothing_open():
    report = soak("bleu", 30, good=3, hostiles=4, slow=20, big_every=10, sample_s=2)
    assert report["every_good_answered"], report["good"]
    for kind, outcome in report["hostile"].items():
        assert all(int(status) < 500 for status in outcome), (kind, outcome)
    assert report["hostile"]["big"] and set(report["hostile"]["big"]) <= {"413", "0"}
    assert report["slow_connections_closed"] > 0 and report["slow_held_s"]["max"] < 15
    assert report["after_stop"]["connections"] == 0
    assert report["after_stop"]["fds"] <= report["samples"][0]["fds"]
    assert report["hostile"]["abandoned"]["-1"] > 0
