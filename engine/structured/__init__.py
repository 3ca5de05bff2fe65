"""The "Structure report" action: the rules rewrite of a report into the structured format (rewrite),
the organ headings it files statements under (organs) and the check that nothing was lost (check)."""
