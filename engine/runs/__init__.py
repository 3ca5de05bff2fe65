"""Batch runs: the runner and its worker processes, the SQLite store, one result as JSON, the run
summary and the comparison of two systems.
"""
