"""Two texts or two rulesets compared: `redline` (word by word, the added and the removed) and `compare` (rule
by rule, across renumbering, splits and merges), with `change_notes` saying in words what a redline does not
show. It reads Markdown as the parser does (parse.source) and nothing of the engine or the site."""
