"""Presentation: turning the ledger's rows into words for the pages, in the reader's language.

No writes, no queries: functions here take what the selectors read and return text.
"""
