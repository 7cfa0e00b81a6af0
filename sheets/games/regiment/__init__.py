"""The Regiment: playbooks (blank, filled, random) and the GM material."""
