"""Issue 31: a words case per catalogue row with a remedy (tests/test_ruling_words_rows.py runs them)."""
