"""The Batch tab: a file of pairs, scored with progress, stored and summarised."""
