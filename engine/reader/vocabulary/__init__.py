"""The reader's vocabularies and their loaders: the lexicon files under engine/data/lexicons
(loader), anatomy, equivalents across modalities, the reader's own words, and the alternation
that runs only the alternatives a text can hold."""
