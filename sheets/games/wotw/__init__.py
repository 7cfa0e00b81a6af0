"""The Way of the Warrior: mission pre-roller, log sheet, campaign and reference."""
