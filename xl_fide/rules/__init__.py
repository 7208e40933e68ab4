"""The FIDE Rating Regulations (Handbook B.02 and the rapid/blitz regulations):
tables 8.1.1/8.1.2, rounding, plain values, rule editions, result codes, rating
changes, initial ratings, performances, whole events and periods, what-if and the
one-off list adjustments. Standard library only: no spreadsheet, no CLI, no I/O."""
