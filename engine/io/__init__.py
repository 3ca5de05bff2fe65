"""Input and output: report pairs (``reports``), the files they are read from and results written to
(``dataio``), the shipped example pairs (``examples``).
"""
