"""Reference implementations that only tests call, kept out of the engine (torchmetrics keeps its
references inside its tests the same way): each recomputes from stored per-pair results what the
engine computes another way, so a test can check that the two agree."""
