"""The pair stage: which statements of two reports pair (pairing), when two may be the same
statement (compatibility), the alignment (align) and the section-by-section reading (by_section)."""
