"""Importers of a game's whole history from where its players keep it: a git repository of its rules
(`git.py`), and Agora's Rulekeepor and Assessor repositories (`agora.py`). Each reads its sources and returns
the files of a format 1.2 game; `archive.py` writes the log's Markdown, `gitread.py` reads git."""
