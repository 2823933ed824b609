"""Ratings: what a game does to a player's FIDE rating, and a club rating across seasons.

Pure engines over frozen dataclasses, nothing read or written:

* :mod:`keizer.rating.fide` — the FIDE Rating Regulations (Handbook B.02, effective from
  1 March 2024, with the amendment of 8.3.1 effective from 1 October 2025, and the Rapid and
  Blitz chapter): expected score (table 8.1.2), K, the change per game, tournament and rating
  period, first ratings of unrated players, the performance rating (table 8.1.1). Exact
  arithmetic throughout.
* :mod:`keizer.rating.dwz` — the Deutscher Schachbund's DWZ (Wertungsordnung 3.3, 3.5,
  Anhang 1.2) for an established player.
* :mod:`keizer.rating.ecf` — the English Chess Federation's monthly rating (R1 = R0 + k(W − We)
  with FIDE's expected-score table) for an established player.
* :mod:`keizer.rating.glicko2` — Glickman's Glicko-2 for one rating period.
* :mod:`keizer.rating.club` — the club rating: Glicko-2 over rounds, reproducible from the
  games alone.

Every figure these give is provisional, not official: the federations compute the official
ratings (docs/ratings.md).
"""
