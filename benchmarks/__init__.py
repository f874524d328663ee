"""Benchmarks and the generators of realistic games and dumps (run as scripts; the
generators are also imported by the tests as ``benchmarks.gen_games`` and
``benchmarks.gen_dump``)."""
