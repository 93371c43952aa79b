"""The caps on what the program reads, defined once (docs/format.md lists them for keepers).

Archives are typed by hand by many players, some of them hostile. Each cap sits far above anything a real
archive holds and far below what would make a run hang or eat memory; an input past one is refused with a
message naming the file (and line), before any parser sees it.
"""
from __future__ import annotations

MAX_FILE_BYTES = 4 * 1024 * 1024  # a Markdown file (rules, a snapshot, a draft, an import)
# A log file: a long game's whole log may be one file (10,000 of Agora's proposals take far more than 4 MB), and
# it is parsed entry by entry, in time and memory linear in it.
MAX_LOG_BYTES = 32 * 1024 * 1024
# What one git command may write to an importer: a history's log with its messages (Agora's whole ruleset
# history is a few MB of it), a tree's listing. A repository's messages may be of any size.
MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024
# A game's whole log: its entries (each costs a check some kilobytes and a millisecond or two; 50,000 proposals
# with their judgments and events fit), and the characters of all the files of the game that are read (log/*.md may
# hold any number of files, each within MAX_LOG_BYTES: 50,000 proposals of a synthetic game take 22 MB).
MAX_GAME_ENTRIES = 100_000
MAX_GAME_BYTES = 64 * 1024 * 1024
MAX_TOML_BYTES = 64 * 1024  # game.toml
MAX_LINE_CHARS = 20_000  # a line of a Markdown or plain-text file
MAX_TOML_LINE_CHARS = 4_000  # a line of game.toml (tomllib's dotted keys cost the square of a line)
MAX_RULE_CHARS = 100_000  # a rule's text, in rules.md, a snapshot, or a change's blockquote
MAX_DIGITS = 12  # a number in an archive (scores, dice, proposal and rule numbers, game.toml integers)
MAX_NESTING = 32  # arrays and inline tables inside one another, in game.toml, `Effect:` values and imported YAML
# Aliases in one YAML document an importer reads (a rule file, front matter): real ones use none; ten aliases of
# ten aliases of ... make a billion values of a few lines (what they may expand to is capped by MAX_FILE_BYTES).
MAX_YAML_ALIASES = 100
# A regular expression of a keeper's records file (`import git --records`), which may come from anyone's repository.
# Its length, and its counted repetitions ({m,n}) multiplied together: the `regex` engine unrolls each count when
# it compiles, so `(?:(?:a{1000}){1000}){1000}` is a billion nodes (gigabytes) in 29 characters. Real ones are a
# line's worth of text with a count or two ({1,6}).
MAX_EXPRESSION_CHARS = 500
MAX_EXPRESSION_REPEATS = 1_000  # the counts of all its repetitions multiplied, as though each held the next
# What all of the records file's expressions may spend matching, over a whole import: an expression that
# backtracks without end ((a+)+$ on a long line of a's) is stopped there, and the import refused at its line. Real
# ones take milliseconds over a game's whole record.
MAX_MATCHING_SECONDS = 20.0
