"""Seeded sample matches between bots, rule-conflict detection, scenarios and the balance report."""
