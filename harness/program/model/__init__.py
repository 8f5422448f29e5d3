"""The program model: every fact of «КРИБЕДЖ» (lines, screen places, variables, texts, rules read)."""
