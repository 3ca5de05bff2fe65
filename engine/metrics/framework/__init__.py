"""What every metric is built from: the spec and result shapes (base), the registry, signatures,
the extractor/scorer split (extraction, encoder_extraction), judge options, defaults and cards."""
