"""Analysis of rulesets: whole games simulated many times (and, later, exact probabilities)."""
