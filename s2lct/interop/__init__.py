"""Other tools' suites and formats, read into s2lct's (CheckList)."""
