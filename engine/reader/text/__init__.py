"""The text stage: a report's words as the lexicons know them (wording), its canonical text and
anatomy (anatomy) and its atomic statements (atoms)."""
