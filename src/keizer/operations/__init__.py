"""Operations: what an officer does, each one transaction over the store.

The CLI (``keizer.cli``) and the web app (``keizer.web``) call these same
functions, so both give the same validation and the same one-line messages.
They translate between the store and the pure engines (``keizer.scoring``,
``keizer.pairing``, ``keizer.tiebreaks``) and hold no presentation.
"""
