"""The Models tab: what is loaded, what the registry offers, and the judge in use."""
