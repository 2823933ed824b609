"""Pairing engines: pure functions from a request to a pairing (Keizer: :mod:`keizer.pairing.keizer`)."""
