"""The text stage: a report's words as the lexicons know them (wording), its sections and
sentences read once (report_text), its canonical text and anatomy (anatomy) and its atomic
statements (atoms)."""
